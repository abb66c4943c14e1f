// Marionette editor — the preview toolbars. The top one: play/pause, step, reset, stop; slow motion; Follow
// Body (the camera keeps the simulated body framed); iterations, step size and gravity (live); the test scene,
// drop height and initial rotation. The bottom one (timelineBar()): the drag/hit/explode tools with the hit
// direction and the strength slider; recording, saving the recording as a scenario, starting from an
// animation, and the history timeline, which stretches. Follow Body and the hit direction
// are remembered (QSettings "preview/followBody", "preview/hitDirection").
#pragma once

#include <QToolBar>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QSlider;
class QSpinBox;
class QLabel;

namespace marionette::editor {
class Document;
}

namespace marionette::app {

class PreviewController;

class PreviewToolBar : public QToolBar {
    Q_OBJECT
  public:
    PreviewToolBar(PreviewController* preview, editor::Document* document, QWidget* parent = nullptr);

    QAction* playAction() const { return mPlay; }
    QAction* stepAction() const { return mStep; }
    QAction* resetAction() const { return mReset; }
    QAction* stopAction() const { return mStop; }
    QAction* recordAction() const { return mRecord; }
    QAction* saveScenarioAction() const { return mSaveScenario; }
    QAction* animationAction() const { return mAnimation; }
    QAction* followAction() const { return mFollow; }
    QComboBox* hitDirectionBox() const { return mHitDirection; }
    QSlider* timeline() const { return mTimeline; }
    /// The second bar (the window puts it at the bottom): the drag/hit/explode tools, recording, the timeline.
    QToolBar* timelineBar() const { return mTimelineBar; }
    /// The third (beside the first): the driven preview (powered ragdolls; PreviewToolBarDrive.cpp): the clip
    /// Play plays through the drives ("none": the ordinary drop), the profile (switched live, with a blend),
    /// Kill and Get Up.
    QToolBar* driveBar() const { return mDriveBar; }
    QComboBox* clipBox() const { return mClip; }
    QComboBox* profileBox() const { return mProfile; }
    QAction* killAction() const { return mKill; }
    QAction* getUpAction() const { return mGetUp; }

  signals:
    /// The user asked to save what was recorded as a scenario.
    void saveScenarioRequested();
    void startFromAnimationRequested();

  private:
    void createDriveBar(QWidget* parent);
    /// The drive bar's combos and actions from the document (clips, profiles) and the session (phase).
    void syncDrive();
    void syncTimeline();
    void applyRotation(int index);

    PreviewController* mPreview;
    editor::Document* mDocument;
    QToolBar* mTimelineBar = nullptr;
    QAction* mPlay;
    QAction* mStep;
    QAction* mReset;
    QAction* mStop;
    QAction* mRecord;
    QAction* mSaveScenario;
    QAction* mAnimation;
    QAction* mFollow;
    QComboBox* mHitDirection;
    QComboBox* mSpeed;
    QSpinBox* mIterations;
    QComboBox* mTimeStep;
    QComboBox* mScene;
    QDoubleSpinBox* mDropHeight;
    QComboBox* mRotation;
    QSlider* mStrength;
    QLabel* mStrengthLabel;
    QSlider* mTimeline;
    QToolBar* mDriveBar = nullptr;
    QComboBox* mClip = nullptr;
    QComboBox* mProfile = nullptr;
    QAction* mKill = nullptr;
    QAction* mGetUp = nullptr;
    bool mSyncing = false;
};

} // namespace marionette::app
