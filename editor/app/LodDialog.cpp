#include "LodDialog.h"

#include "marionette/editor/autorig/Lod.h"
#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/commands/SetLodsCommand.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace marionette::app {

LodDialog::LodDialog(editor::Document& document, QWidget* parent)
    : QDialog(parent), mDocument(document), mTable(new QTableWidget(0, 6)), mCount(new QSpinBox),
      mBenchRagdolls(new QSpinBox), mBenchFrames(new QSpinBox), mGenerate(new QPushButton(tr("Generate"))),
      mRemove(new QPushButton(tr("Remove Level"))), mStatus(new QLabel)
{
    setObjectName(QStringLiteral("lodDialog"));
    setWindowTitle(tr("Levels of Detail"));
    mTable->setObjectName(QStringLiteral("lodTable"));
    mTable->setHorizontalHeaderLabels({tr("Level"), tr("Particles"), tr("Bound bones"), tr("Error mean (cm)"),
                                       tr("Error max (cm)"), tr("µs / ragdoll-step")});
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->verticalHeader()->hide();
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mCount->setObjectName(QStringLiteral("lodParticles"));
    mCount->setToolTip(tr("Particles of the new level: at least 3, fewer than the rig has"));
    mBenchRagdolls->setObjectName(QStringLiteral("lodBenchRagdolls"));
    mBenchRagdolls->setRange(1, 10000);
    mBenchRagdolls->setValue(int(editor::LodMeasureOptions{}.benchRagdolls));
    mBenchFrames->setObjectName(QStringLiteral("lodBenchFrames"));
    mBenchFrames->setRange(1, 100000);
    mBenchFrames->setValue(int(editor::LodMeasureOptions{}.benchFrames));
    mGenerate->setObjectName(QStringLiteral("lodGenerate"));
    mRemove->setObjectName(QStringLiteral("lodRemove"));
    mStatus->setObjectName(QStringLiteral("lodStatus"));
    mStatus->setWordWrap(true);
    connect(mGenerate, &QPushButton::clicked, this, [this] { generate(mCount->value()); });
    connect(mRemove, &QPushButton::clicked, this, [this] { remove(mTable->currentRow()); });
    connect(&mDocument, &editor::Document::lodsChanged, this, &LodDialog::refresh);
    connect(&mDocument, &editor::Document::structureChanged, this, &LodDialog::refresh);

    auto* explain = new QLabel(tr("A level merges particles along chains and binds every bone the full rig binds. "
                                  "Its error is the bone positions' distance from the full rig's over the project's "
                                  "scenarios (plain 2 m drops without any); its cost is timed as 'marionette bench' "
                                  "times it. Export writes each level beside the rig as NAME.lodK.mrig."));
    explain->setWordWrap(true);
    auto* form = new QFormLayout;
    auto* generateRow = new QHBoxLayout;
    generateRow->addWidget(mCount);
    generateRow->addWidget(mGenerate);
    generateRow->addStretch(1);
    form->addRow(tr("New level, particles:"), generateRow);
    auto* timing = new QHBoxLayout;
    timing->addWidget(mBenchRagdolls);
    timing->addWidget(new QLabel(tr("ragdolls ×")));
    timing->addWidget(mBenchFrames);
    timing->addWidget(new QLabel(tr("steps")));
    timing->addStretch(1);
    form->addRow(tr("Cost timed on:"), timing);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(mRemove, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explain);
    layout->addWidget(mTable, 1);
    layout->addLayout(form);
    layout->addWidget(mStatus);
    layout->addWidget(buttons);
    resize(720, 360);
    refresh();
}

void LodDialog::refresh()
{
    const project::Project& p = mDocument.project();
    const int full = int(p.rig.particles.size());
    mCount->setRange(std::min(editor::kMinLodParticles, std::max(0, full - 1)), std::max(0, full - 1));
    if (mCount->value() == mCount->minimum() && full > 4)
        mCount->setValue(std::max(editor::kMinLodParticles, full * 3 / 5));
    mGenerate->setEnabled(full > editor::kMinLodParticles);
    const std::size_t bound = editor::boundBones(p.rig).size();
    mTable->setRowCount(int(p.lods.size()));
    for (std::size_t k = 0; k < p.lods.size(); ++k) {
        const project::LodLevel& level = p.lods[k];
        const auto& m = level.measurement;
        const QStringList cells{QStringLiteral("lod%1").arg(k + 1), QString::number(level.rig.particles.size()),
                                QStringLiteral("%1/%2").arg(editor::boundBones(level.rig).size()).arg(bound),
                                m ? QString::number(double(m->errorMeanCm), 'f', 2) : tr("—"),
                                m ? QString::number(double(m->errorMaxCm), 'f', 2) : tr("—"),
                                m ? QString::number(double(m->usPerRagdollStep), 'f', 2) : tr("—")};
        for (int c = 0; c < cells.size(); ++c)
            mTable->setItem(int(k), c, new QTableWidgetItem(cells[c]));
    }
    mRemove->setEnabled(!p.lods.empty());
}

bool LodDialog::generate(int particles)
{
    const project::Project& p = mDocument.project();
    const editor::LodResult r = editor::generateLod(p.rig, particles);
    if (!r.ok) {
        mStatus->setText(tr("Cannot make a level of %1 particles: %2").arg(particles).arg(QString::fromStdString(r.error)));
        return false;
    }
    project::LodLevel level;
    level.targetParticles = std::uint32_t(particles);
    level.rig = r.rig;
    project::assignMissingIds(level.rig);
    editor::LodMeasureOptions options;
    options.benchRagdolls = mBenchRagdolls->value();
    options.benchFrames = mBenchFrames->value();
    mStatus->setText(tr("Measuring the level of %1 particles…").arg(particles));
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const editor::LodMeasureResult m = editor::measureLod(p, level.rig, options);
    QApplication::restoreOverrideCursor();
    if (!m.ok()) {
        mStatus->setText(tr("Cannot measure the level of %1 particles: %2").arg(particles).arg(m.error));
        return false;
    }
    level.measurement = m.measurement;
    // Finest first; a level of the same count is replaced.
    std::vector<project::LodLevel> lods = p.lods;
    lods.erase(std::remove_if(lods.begin(), lods.end(), [&](const auto& l) { return l.targetParticles == level.targetParticles; }),
               lods.end());
    lods.push_back(level);
    std::stable_sort(lods.begin(), lods.end(), [](const auto& a, const auto& b) { return a.targetParticles > b.targetParticles; });
    mDocument.undoStack()->push(new editor::SetLodsCommand(&mDocument, std::move(lods),
                                                           tr("Generate Level of Detail (%1 particles)").arg(particles)));
    mStatus->setText(tr("Level of %1 particles: bone error %2 cm mean, %3 cm max; %4 µs per ragdoll-step.")
                         .arg(particles)
                         .arg(double(m.measurement.errorMeanCm), 0, 'f', 2)
                         .arg(double(m.measurement.errorMaxCm), 0, 'f', 2)
                         .arg(double(m.measurement.usPerRagdollStep), 0, 'f', 2));
    return true;
}

bool LodDialog::remove(int row)
{
    std::vector<project::LodLevel> lods = mDocument.project().lods;
    if (row < 0 || std::size_t(row) >= lods.size())
        return false;
    lods.erase(lods.begin() + row);
    mDocument.undoStack()->push(new editor::SetLodsCommand(&mDocument, std::move(lods), tr("Remove Level of Detail")));
    mStatus->clear();
    return true;
}

} // namespace marionette::app
