#include "FitLimitsDialog.h"

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/commands/ReplaceElementsCommand.h"
#include "marionette/editor/pluginhost/MeshImport.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace marionette::app {

namespace {
constexpr char kMarginKey[] = "limits/fitMargin";
constexpr int kSceneRole = Qt::UserRole + 1;
constexpr int kClipRole = Qt::UserRole + 2;

QString text(const std::string& s) { return QString::fromStdString(s); }
} // namespace

FitLimitsDialog::FitLimitsDialog(editor::Document* document, editor::PluginHost* plugins, QWidget* parent)
    : QDialog(parent), mDocument(document), mPlugins(plugins), mClips(new QListWidget), mMargin(new QDoubleSpinBox),
      mAddFile(new QPushButton(tr("Add Clip File…"))), mFit(new QPushButton(tr("Fit"))), mStatus(new QLabel),
      mReport(new QTableWidget(0, 6))
{
    setObjectName(QStringLiteral("fitLimitsDialog"));
    setWindowTitle(tr("Fit Limits from Animation"));
    mClips->setObjectName(QStringLiteral("fitClips"));
    mMargin->setObjectName(QStringLiteral("fitMargin"));
    mMargin->setRange(0.0, 90.0);
    mMargin->setDecimals(1);
    mMargin->setSuffix(QStringLiteral("°"));
    mMargin->setValue(QSettings().value(QLatin1String(kMarginKey), 5.0).toDouble());
    mMargin->setToolTip(tr("Added around the range the clips show: to a cone's angle, both ends of the twist "
                           "range and each swing semi-axis"));
    mAddFile->setObjectName(QStringLiteral("fitAddClipFile"));
    mFit->setObjectName(QStringLiteral("fitButton"));
    mStatus->setObjectName(QStringLiteral("fitStatus"));
    mStatus->setWordWrap(true);
    mReport->setObjectName(QStringLiteral("fitReport"));
    mReport->setHorizontalHeaderLabels(
        {tr("Joint"), tr("Kind"), tr("Observed (°)"), tr("Previous"), tr("Fitted"), tr("Frames outside previous")});
    mReport->horizontalHeader()->setStretchLastSection(true);
    mReport->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mReport->verticalHeader()->hide();

    if (const auto& mesh = mDocument->mesh())
        addScene(mesh, QFileInfo(mDocument->project().sourceMesh.path).fileName());
    connect(mAddFile, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Add Clip File"),
                                                          QFileInfo(mDocument->filePath()).absolutePath(),
                                                          editor::meshFileFilter(*mPlugins));
        if (!path.isEmpty())
            addClipFile(path);
    });
    connect(mFit, &QPushButton::clicked, this, [this] { fit(); });

    auto* clipsRow = new QHBoxLayout;
    clipsRow->addWidget(mClips, 1);
    auto* clipButtons = new QVBoxLayout;
    clipButtons->addWidget(mAddFile);
    clipButtons->addStretch(1);
    clipsRow->addLayout(clipButtons);
    auto* form = new QFormLayout;
    form->addRow(tr("Margin:"), mMargin);
    auto* explain = new QLabel(tr("Every frame of the checked clips poses the rig; each angular limit is set to "
                                  "the range seen plus the margin. Joints no clip moves keep their limits."));
    explain->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(mFit, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explain);
    layout->addWidget(new QLabel(tr("Clips:")));
    layout->addLayout(clipsRow);
    layout->addLayout(form);
    layout->addWidget(mStatus);
    layout->addWidget(mReport, 1);
    layout->addWidget(buttons);
    resize(820, 560);
    if (mClips->count() == 0)
        mStatus->setText(tr("The source mesh has no clips: add a clip file."));
}

void FitLimitsDialog::addScene(std::shared_ptr<const import::ImportedScene> scene, const QString& source)
{
    for (std::size_t c = 0; c < scene->animations.size(); ++c) {
        const import::AnimationClip& clip = scene->animations[c];
        auto* item = new QListWidgetItem(tr("%1 — %2 (%3 s)").arg(text(clip.name), source).arg(double(clip.duration), 0, 'f', 2));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        item->setData(kSceneRole, int(mScenes.size()));
        item->setData(kClipRole, int(c));
        mClips->addItem(item);
    }
    mScenes.push_back(std::move(scene));
    mSources.push_back(source);
}

bool FitLimitsDialog::addClipFile(const QString& path)
{
    editor::MeshImportResult imported =
        editor::importMesh(*mPlugins, editor::requestFor(path, mDocument->project().import));
    if (!imported.ok()) {
        mStatus->setText(imported.error);
        return false;
    }
    if (imported.scene.animations.empty()) {
        mStatus->setText(tr("%1: has no animation clips").arg(path));
        return false;
    }
    addScene(std::make_shared<const import::ImportedScene>(std::move(imported.scene)), path);
    mStatus->setText(tr("%1: %n clip(s) added", nullptr, int(mScenes.back()->animations.size())).arg(QFileInfo(path).fileName()));
    return true;
}

bool FitLimitsDialog::fit()
{
    std::vector<editor::LimitFitClip> clips;
    for (int row = 0; row < mClips->count(); ++row) {
        const QListWidgetItem* item = mClips->item(row);
        if (item->checkState() != Qt::Checked)
            continue;
        const auto scene = std::size_t(item->data(kSceneRole).toInt());
        clips.push_back({mScenes[scene].get(), std::size_t(item->data(kClipRole).toInt()), mSources[scene].toStdString()});
    }
    if (clips.empty()) {
        mStatus->setText(tr("Check at least one clip."));
        return false;
    }
    QSettings().setValue(QLatin1String(kMarginKey), mMargin->value());
    editor::LimitFitOptions options;
    options.margin = radians(float(mMargin->value()));
    editor::LimitFitResult result;
    std::string error;
    if (!editor::fitLimits(mDocument->rig(), clips, options, result, error)) {
        mStatus->setText(text(error));
        return false;
    }
    mResult = std::move(result);
    const std::vector<rig::AngularConstraint> changed = mResult.changed();
    if (!changed.empty())
        mDocument->undoStack()->push(new editor::ReplaceElementsCommand(
            mDocument, std::vector<editor::AnyElement>(changed.begin(), changed.end()), tr("Fit Limits from Animation")));
    mStatus->setText(tr("%1 of %2 angular limits changed, from %3 frames of %n clip(s).", nullptr, int(clips.size()))
                         .arg(changed.size())
                         .arg(mResult.joints.size())
                         .arg(mResult.framesSampled));
    showReport();
    return true;
}

QString FitLimitsDialog::status() const { return mStatus->text(); }

void FitLimitsDialog::showReport()
{
    mReport->setRowCount(int(mResult.joints.size()));
    for (int row = 0; row < int(mResult.joints.size()); ++row) {
        const editor::JointFit& j = mResult.joints[std::size_t(row)];
        const bool fitted = j.status == editor::JointFit::Status::Fitted;
        const QString cells[] = {
            text(j.name),
            QString::fromLatin1(editor::limitKindName(j)),
            fitted ? text(editor::observedText(j)) : text(j.note),
            text(editor::limitText(j.previous, j.hinge)),
            fitted ? text(editor::limitText(j.fitted, j.hinge)) : tr("unchanged"),
            fitted ? tr("%1 of %2").arg(j.framesOutside).arg(j.frames) : QString(),
        };
        for (int col = 0; col < 6; ++col) {
            auto* cell = new QTableWidgetItem(cells[col]);
            if (col == 2 && fitted && !j.note.empty())
                cell->setToolTip(text(j.note));
            mReport->setItem(row, col, cell);
        }
    }
    mReport->resizeColumnsToContents();
}

} // namespace marionette::app
