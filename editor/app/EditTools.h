// Marionette editor — the authoring tools: what a click, a box or a gizmo drag in the viewport does.
// Tools never change the document except by pushing undo commands.
//
//   Select           click picks (Shift adds, Ctrl toggles), a box selects, the gizmo moves selected particles
//   Add Particle     click on the mesh: a particle at the limb's centre (midway between where the ray enters
//                    and leaves the body), radius from the limb's thickness; Ctrl+click (or a click off the
//                    mesh near a joint) snaps to the nearest joint
//   Add Stick/Range/Min/Max   two particles: the two selected when the tool starts, else click them in turn
//   Make Triangle    three particles, the same way (origin, up, side)
//   Add Angular      two triangles, the same way
#pragma once

#include "marionette/editor/document/Document.h"
#include "marionette/Math.h"

#include <QObject>
#include <QPointF>
#include <QRectF>

#include <optional>
#include <vector>

namespace marionette::viewport {
class Viewport;
}

namespace marionette::app {

enum class Tool { Select, AddParticle, AddStick, AddRange, AddMinOnly, AddMaxOnly, MakeTriangle, AddAngular };

class EditTools : public QObject {
    Q_OBJECT
  public:
    EditTools(editor::Document* document, viewport::Viewport* viewport, QObject* parent = nullptr);

    Tool tool() const { return mTool; }
    /// Switches tool. A linking tool whose inputs are already selected applies at once (and stays active
    /// for the next ones).
    void setTool(Tool tool);
    /// Add Particle gives the new particle its neighbours' mass; with keepTotalMass it also scales every mass
    /// so the rig's total stays as it was (Tools ▸ Keep Total Mass, remembered in the settings).
    void setKeepTotalMass(bool keep) { mKeepTotalMass = keep; }
    bool keepTotalMass() const { return mKeepTotalMass; }

    /// Particle positions while the gizmo drags (one per rig particle), else empty: the viewport draws them.
    const std::vector<Vec3>& previewPositions() const { return mPreview; }
    /// Where the gizmo belongs: the centre of the selected, unlocked, visible particles (Select tool only).
    std::optional<Vec3> gizmoOrigin() const;
    /// The angular constraint whose limit handles the viewport shows: the only selected element, when it is
    /// one (Select tool only).
    std::optional<rig::ElementId> angularGizmo() const;
    /// The element under the cursor (highlighted by the viewport), if any.
    std::optional<project::ElementRef> hovered() const { return mHovered; }

  signals:
    void toolChanged(marionette::app::Tool tool);
    /// A hint for the status bar ("Click the second particle").
    void hint(const QString& text);
    /// The preview positions changed (redraw).
    void previewChanged();

  private:
    void onClicked(QPointF pixel, Qt::KeyboardModifiers modifiers);
    void onBoxSelected(QRectF rect, Qt::KeyboardModifiers modifiers);
    void onMoveStarted();
    void onMoveUpdated(Vec3 delta);
    void onMoveFinished(Vec3 delta);
    void onMoveCancelled();
    void onHover(QPointF pixel);
    void onAngularDragged(quint32 id, int handle, float radians);
    void addParticleAt(QPointF pixel, bool snapToJoint);
    /// Indices of the selected particles the gizmo moves: visible and unlocked.
    std::vector<std::int32_t> movableSelection() const;
    /// Elements of `kind` the current tool needs, and how many.
    std::optional<std::pair<project::ElementKind, std::size_t>> inputsNeeded() const;
    /// Applies the linking tool to `inputs` (indices of the needed kind). Returns false if they do not fit.
    bool applyLink(const std::vector<std::int32_t>& inputs);
    void updateHint();

    editor::Document* mDocument;
    viewport::Viewport* mViewport;
    Tool mTool = Tool::Select;
    bool mKeepTotalMass = false;
    std::vector<project::ElementRef> mPending; ///< inputs clicked so far for a linking tool
    std::vector<project::ElementRef> mDragged;
    std::vector<Vec3> mDragStart;
    /// With symmetry on, each dragged particle's mirror partner (index, or rig::kNone), found when the drag starts.
    std::vector<std::int32_t> mDragPartners;
    std::vector<Vec3> mPreview;
    std::optional<project::ElementRef> mHovered;
};

} // namespace marionette::app
