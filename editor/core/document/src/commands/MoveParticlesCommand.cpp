#include "marionette/editor/document/commands/MoveParticlesCommand.h"

#include "marionette/editor/document/commands/CommandIds.h"

#include <QCoreApplication>

namespace marionette::editor {

MoveParticlesCommand::MoveParticlesCommand(Document* document, std::vector<ElementRef> particles,
    std::vector<Vec3> positions, int dragId)
    : mDocument(document), mParticles(std::move(particles)), mAfter(std::move(positions)), mDragId(dragId)
{
    mAfter.resize(mParticles.size());
    for (std::size_t k = 0; k < mParticles.size(); ++k) {
        const std::int32_t i = indexOf(document->rig(), mParticles[k]);
        mBefore.push_back(i == rig::kNone ? mAfter[k] : document->rig().particles[std::size_t(i)].position);
    }
    setText(QCoreApplication::translate("Commands", "Move %n Particle(s)", nullptr, int(mParticles.size())));
}

void MoveParticlesCommand::redo() { mDocument->setParticlePositions(mParticles, mAfter); }

void MoveParticlesCommand::undo() { mDocument->setParticlePositions(mParticles, mBefore); }

int MoveParticlesCommand::id() const { return kMoveParticlesCommandId; }

bool MoveParticlesCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const MoveParticlesCommand*>(other);
    if (mDragId == 0 || next->mDragId != mDragId || next->mParticles != mParticles)
        return false;
    mAfter = next->mAfter;
    return true;
}

} // namespace marionette::editor
