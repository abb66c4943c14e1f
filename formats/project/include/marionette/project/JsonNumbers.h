// Marionette — floats in JSON as people write them: 0.1f saved as 0.1, not 0.100000001490116. The project
// writer and the editor's other JSON files (the baked clip) share it.
#pragma once

namespace marionette::project {

/// The shortest decimal that reads back as `f` (std::to_chars), as a double: Qt then writes that double with
/// the fewest digits that read back as the same double, and reading goes decimal -> double -> float. When the
/// double rounding of that path would not give `f` back, the exact value of `f` as a double.
double shortestDouble(float f);

} // namespace marionette::project
