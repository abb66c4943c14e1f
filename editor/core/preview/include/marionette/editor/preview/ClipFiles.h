// Marionette — writing a baked clip (BakedClip.h): a binary glTF 2.0 file with the skinned mesh, or the clip
// alone as JSON (docs/formats.md, "Baked clips"). Both files are replaced atomically: on any failure an
// existing file is left as it was and no partial file is left behind.
#pragma once

#include "marionette/editor/preview/BakedClip.h"

#include <QByteArray>
#include <QString>

namespace marionette::editor {

/// The clip JSON's format name and version ("format", "version").
inline constexpr const char* kClipJsonFormat = "marionette.clip+json";
inline constexpr int kClipJsonVersion = 1;

/// A `.glb` (glTF 2.0, JSON and BIN chunks): every mesh of `mesh` (positions, normals, UVs when it has them,
/// indices; skinned and rigidly bound meshes with JOINTS_0/WEIGHTS_0, weights normalised, and the skin with
/// the skeleton's inverse binds), one node per bone posed at its bindLocal, and `clip` as one animation
/// (translation, rotation and scale samplers per bone, LINEAR). Empty with `error` set when the clip is not
/// on this skeleton.
QByteArray glbBytes(const import::ImportedScene& mesh, const BakedClip& clip, QString& error);

/// The clip as a JSON document (format kClipJsonFormat, version kClipJsonVersion).
QByteArray clipJsonBytes(const BakedClip& clip);

/// Bake file formats.
enum class ClipFormat { Glb, Json };
/// Glb for a path ending in .glb, Json for .json (case-insensitive); false otherwise.
bool clipFormatForPath(const QString& path, ClipFormat& out);

/// Writes the clip to `path` in `format` atomically. False with `error` one line starting with the path
/// ("out.glb: cannot write: Permission denied").
bool writeBakedClip(const QString& path, ClipFormat format, const import::ImportedScene& mesh, const BakedClip& clip,
                    QString& error);

} // namespace marionette::editor
