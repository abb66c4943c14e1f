// Marionette editor — can this machine give the viewport an OpenGL 3.3 core context? Asked once before the
// viewport is created, so a machine without it gets a window with a clear message instead of a crash.
#pragma once

#include <QString>

namespace marionette::app {

/// Empty when an OpenGL 3.3 core context can be created and made current; else a one-line reason such as
/// "OpenGL 3.3 core is not available (got 2.1 from llvmpipe)". Needs a QGuiApplication.
/// MARIONETTE_NO_OPENGL=1 in the environment forces a failure (to see and test the fallback).
QString probeOpenGl();

/// The format the viewport asks for: OpenGL 3.3 core, depth 24, 4× multisampling.
void setDefaultSurfaceFormat();

} // namespace marionette::app
