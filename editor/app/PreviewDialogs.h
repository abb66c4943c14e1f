// Marionette editor — the preview's dialogs: switching from an animation clip to physics ("kill the
// character mid-run"), and saving a recorded preview as a scenario with its expectations.
#pragma once

#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"

#include <QDialog>

#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSlider;
class QLabel;
class QCheckBox;

namespace marionette::app {

/// Pick a clip and a time; the callback shows the clip's pose on the mesh while the slider moves.
class AnimationHandoffDialog : public QDialog {
    Q_OBJECT
  public:
    AnimationHandoffDialog(const import::ImportedScene& mesh, std::function<void(std::size_t, float)> showPose,
        QWidget* parent = nullptr);
    std::size_t clip() const;
    float time() const;

  private:
    void update();
    const import::ImportedScene& mMesh;
    std::function<void(std::size_t, float)> mShowPose;
    QComboBox* mClip;
    QSlider* mTime;
    QLabel* mTimeLabel;
};

/// Name and expectations of a scenario.
class ScenarioDialog : public QDialog {
    Q_OBJECT
  public:
    ScenarioDialog(const QString& suggestedName, float duration, QWidget* parent = nullptr);
    QString name() const;
    project::Expectations expectations() const;

  private:
    QLineEdit* mName;
    QCheckBox* mSettle;
    QDoubleSpinBox* mSettleWithin;
    QDoubleSpinBox* mPenetration;
    QDoubleSpinBox* mLimit;
};

} // namespace marionette::app
