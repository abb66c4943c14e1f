#include "PreviewToolBar.h"

#include "PreviewController.h"

#include "marionette/editor/document/Document.h"

#include <QActionGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>

#include <iterator>
#include <utility>

namespace marionette::app {

namespace {
constexpr char kFollowKey[] = "preview/followBody";
constexpr char kHitDirectionKey[] = "preview/hitDirection";
/// The hit direction modes as stored in the settings, in the combo box's order.
constexpr std::pair<const char*, editor::HitDirection> kHitDirections[] = {
    {"viewRay", editor::HitDirection::ViewRay},
    {"surfaceNormal", editor::HitDirection::SurfaceNormal},
    {"horizontal", editor::HitDirection::Horizontal},
};
} // namespace

PreviewToolBar::PreviewToolBar(PreviewController* preview, editor::Document* document, QWidget* parent)
    : QToolBar(tr("Preview"), parent), mPreview(preview), mDocument(document)
{
    setObjectName(QStringLiteral("previewToolBar"));
    mPlay = addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play"));
    mPlay->setObjectName(QStringLiteral("previewPlay"));
    mPlay->setCheckable(true);
    mPlay->setShortcut(QKeySequence(Qt::Key_Space));
    mPlay->setToolTip(tr("Play / pause the simulation (Space). Editing is locked while previewing."));
    connect(mPlay, &QAction::triggered, this, [this](bool on) { on ? (void)mPreview->play() : mPreview->pause(); });
    connect(preview, &PreviewController::playingChanged, this, [this](bool on) {
        mPlay->setChecked(on);
        mPlay->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    });
    mStep = addAction(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Step"), preview, [this] { mPreview->stepOnce(); });
    mStep->setObjectName(QStringLiteral("previewStep"));
    mStep->setShortcut(QKeySequence(tr("Ctrl+Right")));
    mReset = addAction(style()->standardIcon(QStyle::SP_MediaSkipBackward), tr("Reset"), preview, [this] { mPreview->reset(); });
    mReset->setObjectName(QStringLiteral("previewReset"));
    mReset->setToolTip(tr("Back to the drop pose"));
    mStop = addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"), preview, [this] { mPreview->stop(); });
    mStop->setObjectName(QStringLiteral("previewStop"));
    mStop->setToolTip(tr("End the preview and go back to editing"));

    mSpeed = new QComboBox;
    mSpeed->setObjectName(QStringLiteral("previewSpeed"));
    mSpeed->setToolTip(tr("Slow motion"));
    for (const auto& [text, factor] : {std::pair{"1×", 1.f}, {"1/2×", 0.5f}, {"1/4×", 0.25f}, {"1/10×", 0.1f}})
        mSpeed->addItem(QString::fromUtf8(text), double(factor));
    connect(mSpeed, &QComboBox::currentIndexChanged, this, [this](int i) { mPreview->setSpeed(float(mSpeed->itemData(i).toDouble())); });
    addWidget(mSpeed);
    mFollow = addAction(tr("Follow Body"));
    mFollow->setObjectName(QStringLiteral("previewFollow"));
    mFollow->setCheckable(true);
    mFollow->setChecked(QSettings().value(QLatin1String(kFollowKey), true).toBool());
    mFollow->setToolTip(tr("Follow Body: the camera keeps the simulated body framed (orbit and zoom still work; "
                           "a pan turns it off)"));
    mPreview->setFollowBody(mFollow->isChecked());
    connect(mFollow, &QAction::triggered, this, [this](bool on) {
        QSettings().setValue(QLatin1String(kFollowKey), on); // the user's choice, not a pan's
        mPreview->setFollowBody(on);
    });
    connect(preview, &PreviewController::followBodyChanged, mFollow, &QAction::setChecked);

    addSeparator();
    mIterations = new QSpinBox;
    mIterations->setObjectName(QStringLiteral("previewIterations"));
    mIterations->setRange(0, 64);
    mIterations->setSpecialValueText(tr("rig's"));
    mIterations->setPrefix(tr("it "));
    mIterations->setToolTip(tr("Relaxation iterations per step (live)"));
    connect(mIterations, &QSpinBox::valueChanged, this, [this](int v) { mPreview->setIterations(std::uint32_t(v)); });
    addWidget(mIterations);
    mTimeStep = new QComboBox;
    mTimeStep->setObjectName(QStringLiteral("previewTimeStep"));
    mTimeStep->setToolTip(tr("Fixed step size (live)"));
    mTimeStep->addItem(tr("rig's step"), 0.0);
    for (int hz : {30, 60, 120, 240})
        mTimeStep->addItem(tr("1/%1 s").arg(hz), 1.0 / hz);
    connect(mTimeStep, &QComboBox::currentIndexChanged, this, [this](int i) { mPreview->setTimeStep(float(mTimeStep->itemData(i).toDouble())); });
    addWidget(mTimeStep);
    QAction* gravity = addAction(tr("Gravity"));
    gravity->setObjectName(QStringLiteral("previewGravity"));
    gravity->setCheckable(true);
    gravity->setChecked(true);
    connect(gravity, &QAction::toggled, this, [this](bool on) { mPreview->setGravity(on); });

    addSeparator();
    mScene = new QComboBox;
    mScene->setObjectName(QStringLiteral("previewScene"));
    mScene->setToolTip(tr("Test scene (applies at the next start)"));
    mScene->addItem(tr("Floor"), int(project::Scene::Floor));
    mScene->addItem(tr("Stairs"), int(project::Scene::Stairs));
    mScene->addItem(tr("Ledge"), int(project::Scene::Ledge));
    mScene->addItem(tr("Box"), int(project::Scene::Box));
    connect(mScene, &QComboBox::currentIndexChanged, this, [this](int i) { mPreview->settings().scene = project::Scene(mScene->itemData(i).toInt()); });
    addWidget(mScene);
    mDropHeight = new QDoubleSpinBox;
    mDropHeight->setObjectName(QStringLiteral("previewDropHeight"));
    mDropHeight->setRange(0.0, 50.0);
    mDropHeight->setSingleStep(0.25);
    mDropHeight->setPrefix(tr("drop "));
    mDropHeight->setSuffix(tr(" m"));
    mDropHeight->setValue(double(mPreview->settings().dropHeight));
    connect(mDropHeight, &QDoubleSpinBox::valueChanged, this, [this](double v) { mPreview->settings().dropHeight = float(v); });
    addWidget(mDropHeight);
    mRotation = new QComboBox;
    mRotation->setObjectName(QStringLiteral("previewRotation"));
    mRotation->setToolTip(tr("Orientation when dropped"));
    mRotation->addItems({tr("Upright"), tr("Face down"), tr("On its back"), tr("On its side"), tr("Upside down"), tr("Random")});
    connect(mRotation, &QComboBox::currentIndexChanged, this, &PreviewToolBar::applyRotation);
    addWidget(mRotation);

    // The second bar, at the window's bottom: the preview's tools, recording and the timeline, which stretches.
    mTimelineBar = new QToolBar(tr("Preview Timeline"), parent);
    mTimelineBar->setObjectName(QStringLiteral("previewTimelineBar"));
    QToolBar* bar = mTimelineBar;
    auto* tools = new QActionGroup(this);
    for (const auto& [name, text, tool] : {std::tuple{"previewDrag", tr("Drag"), PreviewTool::Drag},
             std::tuple{"previewHit", tr("Hit"), PreviewTool::Hit}, std::tuple{"previewExplode", tr("Explode"), PreviewTool::Explode}}) {
        QAction* a = bar->addAction(text);
        a->setObjectName(QString::fromLatin1(name));
        a->setCheckable(true);
        a->setChecked(tool == PreviewTool::Drag);
        tools->addAction(a);
        const PreviewTool t = tool;
        connect(a, &QAction::triggered, this, [this, t] { mPreview->setTool(t); });
    }
    mHitDirection = new QComboBox;
    mHitDirection->setObjectName(QStringLiteral("previewHitDirection"));
    mHitDirection->setToolTip(tr("Which way a hit strikes: along the view ray, into the surface struck, or "
                                 "horizontally through the view (a body lying on the floor from a raised camera)"));
    const QString storedDirection = QSettings().value(QLatin1String(kHitDirectionKey)).toString();
    for (const auto& [key, mode] : kHitDirections) {
        const QString text = mode == editor::HitDirection::ViewRay         ? tr("View ray")
                             : mode == editor::HitDirection::SurfaceNormal ? tr("Surface normal")
                                                                           : tr("Horizontal");
        mHitDirection->addItem(text, QString::fromLatin1(key));
        if (storedDirection == QLatin1String(key)) {
            mHitDirection->setCurrentIndex(mHitDirection->count() - 1);
            mPreview->setHitDirection(mode);
        }
    }
    connect(mHitDirection, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i < 0 || i >= int(std::size(kHitDirections)))
            return;
        QSettings().setValue(QLatin1String(kHitDirectionKey), QLatin1String(kHitDirections[i].first));
        mPreview->setHitDirection(kHitDirections[i].second);
    });
    bar->addWidget(mHitDirection);
    mStrength = new QSlider(Qt::Horizontal);
    mStrength->setObjectName(QStringLiteral("previewStrength"));
    mStrength->setRange(1, 300);
    mStrength->setValue(int(mPreview->hitStrength()));
    mStrength->setMaximumWidth(120);
    mStrength->setToolTip(tr("Hit impulse (N·s); explosions are 20× stronger"));
    mStrengthLabel = new QLabel(tr("%1 N·s").arg(mStrength->value()));
    connect(mStrength, &QSlider::valueChanged, this, [this](int v) {
        mPreview->setHitStrength(float(v));
        mStrengthLabel->setText(tr("%1 N·s").arg(v));
    });
    bar->addWidget(mStrength);
    bar->addWidget(mStrengthLabel);

    bar->addSeparator();
    mRecord = bar->addAction(tr("● Record"));
    mRecord->setObjectName(QStringLiteral("previewRecord"));
    mRecord->setCheckable(true);
    mRecord->setToolTip(tr("Record the drop, hits and drags, to save them as a scenario"));
    connect(mRecord, &QAction::toggled, this, [this](bool on) { mPreview->setRecording(on); });
    mSaveScenario = bar->addAction(tr("Save Scenario…"), this, [this] { emit saveScenarioRequested(); });
    mSaveScenario->setObjectName(QStringLiteral("previewSaveScenario"));
    mAnimation = bar->addAction(tr("From Animation…"), this, [this] { emit startFromAnimationRequested(); });
    mAnimation->setObjectName(QStringLiteral("previewFromAnimation"));
    mAnimation->setToolTip(tr("Play a clip of the mesh and switch to physics at a chosen frame, keeping its velocity"));

    mTimeline = new QSlider(Qt::Horizontal);
    mTimeline->setObjectName(QStringLiteral("previewTimeline"));
    mTimeline->setMinimumWidth(160);
    mTimeline->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    mTimeline->setToolTip(tr("History: drag to scrub back through the last steps; Play continues from there"));
    connect(mTimeline, &QSlider::valueChanged, this, [this](int v) {
        if (!mSyncing)
            mPreview->seek(std::uint64_t(v));
    });
    bar->addWidget(mTimeline);
    connect(preview, &PreviewController::frameReady, this, &PreviewToolBar::syncTimeline);
    connect(preview, &PreviewController::activeChanged, this, [this](bool active) {
        if (active) { // each preview starts with the remembered choice (a pan in the last one is forgotten)
            const bool follow = QSettings().value(QLatin1String(kFollowKey), true).toBool();
            mFollow->setChecked(follow);
            mPreview->setFollowBody(follow);
        }
        mStop->setEnabled(active);
        mReset->setEnabled(active);
        mTimeline->setEnabled(active);
        mSaveScenario->setEnabled(active);
        mScene->setEnabled(!active);
        mDropHeight->setEnabled(!active);
        mRotation->setEnabled(!active);
    });
    mStop->setEnabled(false);
    mReset->setEnabled(false);
    mTimeline->setEnabled(false);
    mSaveScenario->setEnabled(false);
    createDriveBar(parent);
}

void PreviewToolBar::applyRotation(int index)
{
    project::InitialRotation& r = mPreview->settings().rotation;
    r.random = index == 5;
    static const Quat rotations[] = {
        Quat{},                                                    // upright
        Quat::fromAxisAngle({1, 0, 0}, radians(90.f)),             // face down (+Z front turned to -Y)
        Quat::fromAxisAngle({1, 0, 0}, radians(-90.f)),            // on its back
        Quat::fromAxisAngle({0, 0, 1}, radians(90.f)),             // on its side
        Quat::fromAxisAngle({1, 0, 0}, radians(180.f)),            // upside down
    };
    if (!r.random)
        r.rotation = rotations[std::clamp(index, 0, 4)];
    else
        r.seed = r.seed + 1; // a new random orientation each time Random is chosen
}

void PreviewToolBar::syncTimeline()
{
    const editor::PreviewSession* session = mPreview->session();
    if (!session)
        return;
    mSyncing = true;
    const std::uint64_t last = session->historyEnd() > session->historyBegin() ? session->historyEnd() - 1 : session->historyBegin();
    mTimeline->setRange(int(session->historyBegin()), int(last));
    mTimeline->setValue(int(session->stepIndex()));
    mSyncing = false;
}

} // namespace marionette::app
