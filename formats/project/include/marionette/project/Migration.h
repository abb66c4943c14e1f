// Marionette — project format versions and the migrations between them.
//
// Each step rewrites a JSON document of version N into version N+1; a document of any older version goes
// through every later step in turn, so a new format version adds exactly one step (and a fixture of the
// old version under tests/formats/project/data/). docs/project-format.md describes every version.
#pragma once

#include <QJsonObject>
#include <QString>

#include <span>

namespace marionette::project {

/// The version this build writes and the newest it reads.
constexpr int kProjectVersion = 2;
/// The value of the top-level "format" key of every project document.
constexpr const char* kProjectFormatTag = "marionette-project";

/// Rewrites `document` (version N, top-level "version" included) into version N + 1. Returns an empty
/// string on success, else "$.path: message" naming the problem in the version N document.
using MigrationStep = QString (*)(QJsonObject& document);

/// The chain: element N upgrades version N to N + 1; its size is kProjectVersion.
std::span<const MigrationStep> migrationSteps();

/// Runs the steps from `fromVersion` (0 <= fromVersion <= kProjectVersion) to kProjectVersion. Returns an
/// empty string on success; on failure the message, with `document` in an unspecified state.
QString migrateToCurrent(QJsonObject& document, int fromVersion);

} // namespace marionette::project
