// Marionette — the bone map file of a rig transfer (editor::transferRig, docs/autorig.md "Rig transfer"): a
// JSON object pairing the rig's bones with the target's, {"SOURCE_BONE": "TARGET_BONE", ...}. Read by the
// editor's File ▸ Transfer Rig to Mesh… and `marionette transfer --map`.
#pragma once

#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace marionette::editor {

/// Reads `path` into `out` (source name, target name) in the file's key order. Returns "" or one line naming
/// the file: "map.json: cannot read: No such file or directory", "map.json: not JSON: unterminated object at
/// offset 9", "map.json: expected an object pairing bones, ...", "map.json: 'Hips': the target bone must be
/// a string".
QString readBoneMapFile(const QString& path, std::vector<std::pair<std::string, std::string>>& out);

} // namespace marionette::editor
