#include "EditTools.h"

#include "SymmetricEdits.h"

#include "viewport/Viewport.h"

#include "marionette/editor/document/commands/AddAngularConstraintCommand.h"
#include "marionette/editor/document/commands/AddParticleCommand.h"
#include "marionette/editor/document/commands/AddStickCommand.h"
#include "marionette/editor/document/commands/AddTriangleCommand.h"
#include "marionette/editor/document/commands/ChangePropertyCommand.h"
#include "marionette/editor/document/commands/MoveParticlesCommand.h"

#include "marionette/editor/document/Properties.h"

#include <algorithm>

namespace marionette::app {

using project::ElementKind;
using project::ElementRef;

EditTools::EditTools(editor::Document* document, viewport::Viewport* viewport, QObject* parent)
    : QObject(parent), mDocument(document), mViewport(viewport)
{
    if (viewport) {
        connect(viewport, &viewport::Viewport::clicked, this, &EditTools::onClicked);
        connect(viewport, &viewport::Viewport::boxSelected, this, &EditTools::onBoxSelected);
        connect(viewport, &viewport::Viewport::moveStarted, this, &EditTools::onMoveStarted);
        connect(viewport, &viewport::Viewport::moveUpdated, this, &EditTools::onMoveUpdated);
        connect(viewport, &viewport::Viewport::moveFinished, this, &EditTools::onMoveFinished);
        connect(viewport, &viewport::Viewport::moveCancelled, this, &EditTools::onMoveCancelled);
        connect(viewport, &viewport::Viewport::hoverMoved, this, &EditTools::onHover);
        // A limit handle dragged: the property follows live, merged into one undo step; a cancelled drag
        // puts the original value back, which leaves no step at all.
        auto angular = [this](quint32 id, viewport::AngularLimitHandle which, float radians) {
            onAngularDragged(id, int(which), radians);
        };
        connect(viewport, &viewport::Viewport::angularLimitDragged, this, angular);
        connect(viewport, &viewport::Viewport::angularLimitDragFinished, this, angular);
        connect(viewport, &viewport::Viewport::angularLimitDragCancelled, this, angular);
    }
    connect(document, &editor::Document::structureChanged, this, [this] {
        std::erase_if(mPending, [this](ElementRef r) { return editor::indexOf(mDocument->rig(), r) == rig::kNone; });
    });
}

void EditTools::setTool(Tool tool)
{
    mPending.clear();
    mTool = tool;
    emit toolChanged(tool);
    if (const auto needed = inputsNeeded()) {
        const std::vector<std::int32_t> selected = mDocument->selectedIndices(needed->first);
        if (selected.size() == needed->second && mDocument->selection().size() == needed->second)
            applyLink(selected);
    }
    updateHint();
}

std::optional<std::pair<ElementKind, std::size_t>> EditTools::inputsNeeded() const
{
    switch (mTool) {
    case Tool::AddStick:
    case Tool::AddRange:
    case Tool::AddMinOnly:
    case Tool::AddMaxOnly: return std::make_pair(ElementKind::Particle, std::size_t(2));
    case Tool::MakeTriangle: return std::make_pair(ElementKind::Particle, std::size_t(3));
    case Tool::AddAngular: return std::make_pair(ElementKind::Triangle, std::size_t(2));
    case Tool::Select:
    case Tool::AddParticle: break;
    }
    return std::nullopt;
}

void EditTools::updateHint()
{
    static const char* ordinals[] = {"first", "second", "third"};
    QString text;
    switch (mTool) {
    case Tool::Select: text = tr("Click or drag a box to select; drag the gizmo to move particles"); break;
    case Tool::AddParticle: text = tr("Click on the mesh to add a particle inside the limb; Ctrl+click snaps to a joint"); break;
    default: {
        const auto needed = inputsNeeded();
        const bool particles = needed->first == ElementKind::Particle;
        text = tr("Click the %1 %2 (Esc: back to Select)")
                   .arg(QLatin1String(ordinals[std::min<std::size_t>(mPending.size(), 2)]),
                        particles ? tr("particle") : tr("triangle"));
    }
    }
    emit hint(text);
}

bool EditTools::applyLink(const std::vector<std::int32_t>& inputs)
{
    for (std::size_t i = 0; i < inputs.size(); ++i)
        for (std::size_t j = i + 1; j < inputs.size(); ++j)
            if (inputs[i] == inputs[j])
                return false;
    editor::Document* doc = mDocument;
    switch (mTool) {
    case Tool::AddStick: pushEdit(doc, new editor::AddStickCommand(doc, inputs[0], inputs[1], rig::StickKind::Rigid)); break;
    case Tool::AddRange: pushEdit(doc, new editor::AddStickCommand(doc, inputs[0], inputs[1], rig::StickKind::Range)); break;
    case Tool::AddMinOnly: pushEdit(doc, new editor::AddStickCommand(doc, inputs[0], inputs[1], rig::StickKind::MinOnly)); break;
    case Tool::AddMaxOnly: pushEdit(doc, new editor::AddStickCommand(doc, inputs[0], inputs[1], rig::StickKind::MaxOnly)); break;
    case Tool::MakeTriangle: pushEdit(doc, new editor::AddTriangleCommand(doc, inputs[0], inputs[1], inputs[2])); break;
    case Tool::AddAngular: pushEdit(doc, new editor::AddAngularConstraintCommand(doc, inputs[0], inputs[1])); break;
    case Tool::Select:
    case Tool::AddParticle: return false;
    }
    return true;
}

void EditTools::onClicked(QPointF pixel, Qt::KeyboardModifiers modifiers)
{
    if (mTool == Tool::AddParticle) {
        addParticleAt(pixel, modifiers & Qt::ControlModifier);
        return;
    }
    const std::optional<viewport::Pick> pick = mViewport->pickAt(pixel);
    if (const auto needed = inputsNeeded()) {
        if (!pick || pick->element.kind != needed->first) {
            emit hint(needed->first == ElementKind::Particle ? tr("That is not a particle: click a particle")
                                                             : tr("That is not a triangle: click a triangle"));
            return;
        }
        if (std::find(mPending.begin(), mPending.end(), pick->element) == mPending.end())
            mPending.push_back(pick->element);
        mDocument->setSelection(mPending);
        if (mPending.size() == needed->second) {
            std::vector<std::int32_t> inputs;
            for (const ElementRef& r : mPending)
                inputs.push_back(editor::indexOf(mDocument->rig(), r));
            mPending.clear();
            applyLink(inputs);
        }
        updateHint();
        return;
    }
    // Select tool.
    std::vector<ElementRef> selection = mDocument->selection();
    if (!pick) {
        if (!(modifiers & (Qt::ShiftModifier | Qt::ControlModifier)))
            mDocument->setSelection({});
        return;
    }
    const auto it = std::find(selection.begin(), selection.end(), pick->element);
    if (modifiers & Qt::ControlModifier) {
        if (it != selection.end())
            selection.erase(it);
        else
            selection.push_back(pick->element);
    } else if (modifiers & Qt::ShiftModifier) {
        if (it == selection.end())
            selection.push_back(pick->element);
    } else {
        selection = {pick->element};
    }
    mDocument->setSelection(selection);
}

void EditTools::onBoxSelected(QRectF rect, Qt::KeyboardModifiers modifiers)
{
    if (mTool != Tool::Select)
        return;
    std::vector<ElementRef> picked = mViewport->pickInRect(rect);
    std::vector<ElementRef> selection = (modifiers & (Qt::ShiftModifier | Qt::ControlModifier)) ? mDocument->selection()
                                                                                                 : std::vector<ElementRef>{};
    for (const ElementRef& r : picked) {
        const auto it = std::find(selection.begin(), selection.end(), r);
        if (modifiers & Qt::ControlModifier) {
            if (it != selection.end())
                selection.erase(it);
        } else if (it == selection.end()) {
            selection.push_back(r);
        }
    }
    mDocument->setSelection(selection);
}

void EditTools::addParticleAt(QPointF pixel, bool snapToJoint)
{
    const std::optional<viewport::SurfacePoint> surface = snapToJoint ? std::nullopt : mViewport->surfacePoint(pixel);
    if (surface) {
        // Radius: most of the limb's half thickness along the ray, within sensible bounds.
        const float thickness = surface->hasExit ? length(surface->exit - surface->entry) : 0.1f;
        const float radius = std::clamp(0.4f * thickness, 0.01f, 0.25f);
        pushEdit(mDocument, editor::AddParticleCommand::withNeighbourMass(mDocument, surface->midpoint, radius, rig::kNone, mKeepTotalMass));
        return;
    }
    const std::optional<int> joint = mViewport->nearestJoint(pixel);
    const auto& bones = mDocument->rig().bones.empty() && mDocument->mesh() ? mDocument->mesh()->skeleton : mDocument->rig().bones;
    if (joint && std::size_t(*joint) < bones.size()) {
        const Mat4& m = bones[std::size_t(*joint)].bindWorld;
        const bool rigHasBone = std::size_t(*joint) < mDocument->rig().bones.size();
        pushEdit(mDocument, editor::AddParticleCommand::withNeighbourMass(mDocument, Vec3{m(0, 3), m(1, 3), m(2, 3)}, 0.05f,
                                rigHasBone ? *joint : rig::kNone, mKeepTotalMass));
        return;
    }
    emit hint(snapToJoint ? tr("No joint near the cursor") : tr("Click on the mesh (or Ctrl+click near a joint)"));
}

void EditTools::onHover(QPointF pixel)
{
    const std::optional<viewport::Pick> pick = mViewport->pickAt(pixel);
    const std::optional<ElementRef> hovered = pick ? std::optional<ElementRef>(pick->element) : std::nullopt;
    if (hovered != mHovered) {
        mHovered = hovered;
        emit previewChanged();
    }
}

void EditTools::onAngularDragged(quint32 id, int handle, float radians)
{
    const ElementRef ref{ElementKind::Angular, id};
    const std::int32_t i = editor::indexOf(mDocument->rig(), ref);
    if (i == rig::kNone)
        return;
    const bool cone = mDocument->rig().angular[std::size_t(i)].limit == rig::AngularLimit::Cone;
    QString key;
    switch (viewport::AngularLimitHandle(handle)) {
    case viewport::AngularLimitHandle::Swing1: key = cone ? QStringLiteral("coneAngle") : QStringLiteral("swing1"); break;
    case viewport::AngularLimitHandle::Swing2: key = QStringLiteral("swing2"); break;
    case viewport::AngularLimitHandle::TwistMin: key = QStringLiteral("twistMin"); break;
    case viewport::AngularLimitHandle::TwistMax: key = QStringLiteral("twistMax"); break;
    }
    const editor::PropertyDef* def = editor::findProperty(editor::propertiesOf(ElementKind::Angular), key);
    const double value = std::clamp(double(radians), def->minimum, def->maximum);
    pushEdit(mDocument, new editor::ChangePropertyCommand(mDocument, {ref}, key, value));
}

std::optional<rig::ElementId> EditTools::angularGizmo() const
{
    const auto& selection = mDocument->selection();
    if (mTool != Tool::Select || selection.size() != 1 || selection.front().kind != ElementKind::Angular)
        return std::nullopt;
    return selection.front().id;
}

std::vector<std::int32_t> EditTools::movableSelection() const
{
    std::vector<std::int32_t> out;
    for (std::int32_t i : mDocument->selectedIndices(ElementKind::Particle)) {
        const ElementRef ref{ElementKind::Particle, mDocument->rig().particles[std::size_t(i)].id};
        if (!mDocument->isLocked(ref) && mDocument->isVisible(ref))
            out.push_back(i);
    }
    return out;
}

std::optional<Vec3> EditTools::gizmoOrigin() const
{
    if (mTool != Tool::Select)
        return std::nullopt;
    const std::vector<std::int32_t> movable = movableSelection();
    if (movable.empty())
        return std::nullopt;
    Vec3 sum;
    for (std::int32_t i : movable)
        sum = sum + (mPreview.empty() ? mDocument->rig().particles[std::size_t(i)].position : mPreview[std::size_t(i)]);
    return sum * (1.f / float(movable.size()));
}

void EditTools::onMoveStarted()
{
    mDragged.clear();
    mDragStart.clear();
    mDragPartners.clear();
    const std::vector<std::int32_t> movable = movableSelection();
    const editor::MirrorMap pairs = mDocument->project().editor.symmetry.enabled ? mirrorPairs(*mDocument) : editor::MirrorMap{};
    for (std::int32_t i : movable) {
        const rig::Particle& p = mDocument->rig().particles[std::size_t(i)];
        mDragged.push_back({ElementKind::Particle, p.id});
        mDragStart.push_back(p.position);
        // A partner that is dragged too, or the particle itself (on the plane), does not follow.
        const std::int32_t j = pairs.partner(ElementKind::Particle, i);
        const bool follows = j != rig::kNone && j != i && std::find(movable.begin(), movable.end(), j) == movable.end();
        mDragPartners.push_back(follows ? j : rig::kNone);
    }
}

void EditTools::onMoveUpdated(Vec3 delta)
{
    if (mDragged.empty())
        return;
    mPreview.clear();
    for (const rig::Particle& p : mDocument->rig().particles)
        mPreview.push_back(p.position);
    // With symmetry on, each dragged particle's partner follows mirrored (onMoveStarted found them).
    const editor::MirrorPlane plane = editor::MirrorPlane::of(mDocument->project().editor.symmetry);
    for (std::size_t k = 0; k < mDragged.size(); ++k)
        if (const std::int32_t i = editor::indexOf(mDocument->rig(), mDragged[k]); i != rig::kNone) {
            mPreview[std::size_t(i)] = mDragStart[k] + delta;
            if (const std::int32_t j = mDragPartners[k]; j != rig::kNone)
                mPreview[std::size_t(j)] = plane.reflect(mPreview[std::size_t(i)]);
        }
    emit previewChanged();
}

void EditTools::onMoveFinished(Vec3 delta)
{
    mPreview.clear();
    if (!mDragged.empty() && lengthSquared(delta) > 0.f) {
        std::vector<Vec3> positions;
        for (const Vec3& start : mDragStart)
            positions.push_back(start + delta);
        pushEdit(mDocument, new editor::MoveParticlesCommand(mDocument, mDragged, positions));
    }
    mDragged.clear();
    emit previewChanged();
}

void EditTools::onMoveCancelled()
{
    mPreview.clear();
    mDragged.clear();
    emit previewChanged();
}

} // namespace marionette::app
