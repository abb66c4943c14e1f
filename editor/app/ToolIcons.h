// Marionette editor — the edit tools' icons, drawn with QPainter in the palette's colours (no image files):
// a particle, a stick, a range, min-only and max-only links, a triangle, an angle. With them the Tools bar is
// a compact palette that fits the window at 1280 pixels; the menu keeps the names and shortcuts.
#pragma once

#include "EditTools.h"

#include <QIcon>

class QPalette;

namespace marionette::app {

QIcon toolIcon(Tool tool, const QPalette& palette);

} // namespace marionette::app
