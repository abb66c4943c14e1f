#include "marionette/editor/document/commands/SymmetricEditCommand.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/document/commands/CommandIds.h"

#include <algorithm>

namespace marionette::editor {

namespace {

constexpr ElementKind kKinds[] = {ElementKind::Particle, ElementKind::Stick, ElementKind::Angle,   ElementKind::Triangle,
                                  ElementKind::Angular,  ElementKind::Pin,   ElementKind::Shape,   ElementKind::Bone,
                                  ElementKind::Binding};

/// Same elements (kinds, counts and ids in order): the two rigs differ in values only.
bool sameStructure(const rig::RigDescription& a, const rig::RigDescription& b)
{
    for (ElementKind kind : kKinds) {
        if (countOf(a, kind) != countOf(b, kind))
            return false;
        for (std::size_t i = 0; i < countOf(a, kind); ++i)
            if (idAt(a, kind, i) != idAt(b, kind, i))
                return false;
    }
    return true;
}

bool sameRig(const rig::RigDescription& a, const rig::RigDescription& b)
{
    if (!sameStructure(a, b) || !sameDriveProfiles(a.driveProfiles, b.driveProfiles))
        return false;
    for (ElementKind kind : kKinds)
        for (std::size_t i = 0; i < countOf(a, kind); ++i)
            if (!sameValues(elementAt(a, kind, i), elementAt(b, kind, i)))
                return false;
    return true;
}

} // namespace

SymmetricEditCommand::SymmetricEditCommand(Document* document, QUndoCommand* edit, MirrorMap pairs,
    const project::SymmetrySettings& symmetry, MirrorNamer namer)
    : mDocument(document), mEdit(edit), mPairs(std::move(pairs)), mPlane(MirrorPlane::of(symmetry)),
      mTolerance(symmetry.tolerance), mNamer(std::move(namer))
{
    setText(mEdit->text());
}

SymmetricEditCommand::~SymmetricEditCommand() = default;

void SymmetricEditCommand::apply(const rig::RigDescription& target, const std::vector<project::ElementView>* views)
{
    const rig::RigDescription& now = mDocument->rig();
    if (sameStructure(now, target)) {
        for (ElementKind kind : kKinds)
            for (std::size_t i = 0; i < countOf(target, kind); ++i) {
                const AnyElement e = elementAt(target, kind, i);
                if (!sameValues(elementAt(mDocument->rig(), kind, i), e))
                    mDocument->replaceElement({kind, idAt(target, kind, i)}, e);
            }
        if (!sameDriveProfiles(now.driveProfiles, target.driveProfiles))
            mDocument->setDriveProfiles(target.driveProfiles);
        return;
    }
    std::vector<project::ElementView> kept;
    for (const project::ElementView& v : views ? *views : mDocument->project().editor.elements)
        if (indexOf(target, v.element) != rig::kNone)
            kept.push_back(v);
    mDocument->replaceRig(target, std::move(kept));
}

void SymmetricEditCommand::redo()
{
    if (mDone) {
        if (mMirrored)
            apply(mAfter, nullptr);
        else
            mEdit->redo();
        return;
    }
    mDone = true;
    mBefore = mDocument->rig();
    mViewsBefore = mDocument->project().editor.elements;
    mEdit->redo();
    const rig::RigDescription edited = mDocument->rig();
    const rig::RigDescription both = withMirroredEdit(mBefore, edited, mPairs, mPlane, mTolerance, mNamer);
    mMirrored = !sameRig(both, edited);
    if (mMirrored)
        apply(both, nullptr);
    mAfter = mDocument->rig();
}

void SymmetricEditCommand::undo()
{
    if (mMirrored)
        apply(mBefore, &mViewsBefore);
    else
        mEdit->undo();
}

int SymmetricEditCommand::id() const { return mEdit->id() < 0 ? -1 : kSymmetricEditCommandId; }

bool SymmetricEditCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const SymmetricEditCommand*>(other);
    if (next->mEdit->id() != mEdit->id() || !mEdit->mergeWith(next->mEdit.get()))
        return false;
    // The document now holds the later step's result; undo goes back to before this one.
    mAfter = mDocument->rig();
    mMirrored = mMirrored || next->mMirrored;
    if (!mMirrored && mEdit->isObsolete())
        setObsolete(true);
    if (mMirrored && sameRig(mAfter, mBefore))
        setObsolete(true);
    return true;
}

} // namespace marionette::editor
