// Internal: a RawScene as bytes, to carry it from the reader process to the importing one (ProcessReader).
// Same machine, same build: native byte order and layout. The reader still checks every count against the
// bytes left, so a reader process that died half-way can only produce an error, never a huge allocation.
#pragma once

#include "RawScene.h"

#include <string>

namespace marionette::import::detail {

void writeRawScene(const RawScene& scene, std::string& out);
/// Returns "" and fills `out`, or says what is wrong with the bytes.
std::string readRawScene(const char* data, std::size_t size, RawScene& out);

} // namespace marionette::import::detail
