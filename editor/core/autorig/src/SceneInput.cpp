#include "marionette/editor/autorig/SceneInput.h"

#include <filesystem>

namespace marionette::editor {

AutoRigInput autoRigInputFromScene(const import::ImportedScene& scene, RigTemplate requested, float totalMass)
{
    AutoRigInput in;
    in.skeleton = scene.skeleton;
    in.boneVertices.resize(scene.skeleton.size());
    for (const import::ImportedMesh& mesh : scene.meshes)
        for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
            const std::int32_t b = mesh.isSkinned() ? mesh.influences[v].bone[0] : mesh.rigidBone;
            if (b >= 0 && std::size_t(b) < in.boneVertices.size())
                in.boneVertices[std::size_t(b)].push_back(mesh.positions[v]);
        }
    in.requested = requested;
    in.totalMass = totalMass;
    in.name = std::filesystem::path(scene.sourcePath).stem().string();
    return in;
}

} // namespace marionette::editor
