// Marionette viewport — GLSL 330 core sources of the viewport's programs.
//   mesh:   the imported mesh, linear blend skinning from a texture-buffer palette (4 influences, any bone
//           count), lambert + rim, material colour × optional texture, opacity.
//   sphere: instanced shaded spheres (particles, handles) with a minimum size in pixels; also the rim
//           outline of hovered ones (grown by some pixels, front faces culled).
//   line:   lines widened to screen-space quads in a geometry shader, anti-aliased, optionally dashed.
//   face:   flat coloured triangles (rig triangles, ground, gizmo heads, rubber band).
#pragma once

namespace marionette::viewport::shaders {

extern const char* const kMeshVertex;
extern const char* const kMeshFragment;
extern const char* const kSphereVertex;
extern const char* const kSphereFragment;
extern const char* const kLineVertex;
extern const char* const kLineGeometry;
extern const char* const kLineFragment;
extern const char* const kFaceVertex;
extern const char* const kFaceFragment;
/// A source that does not compile, for the GL-failure test hook.
extern const char* const kBroken;

} // namespace marionette::viewport::shaders
