// Marionette editor — the auto-rig dialog: which template (the built-in auto/humanoid/generic and any
// template plugin), the ragdoll's total mass, and whether the masses come from the mesh's skinned volume
// instead of the template's table (remembered: QSettings "autoRig/massFromMesh").
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace marionette::app {

/// The ragdoll's total mass field of the auto-rig and import dialogs ("mass": 0.1-100000 kg, 75 kg).
QDoubleSpinBox* totalMassBox();

class AutoRigDialog : public QDialog {
    Q_OBJECT
  public:
    struct Choice {
        QString name;        ///< template short name
        QString description; ///< shown under the combo box
    };
    AutoRigDialog(const std::vector<Choice>& templates, QWidget* parent = nullptr);

    QString templateName() const;
    void setTemplateName(const QString& name);
    float totalMass() const;
    void setTotalMass(float kg);
    bool massFromMesh() const;

  private:
    QComboBox* mTemplate;
    QDoubleSpinBox* mMass;
    QCheckBox* mMassFromMesh;
    QLabel* mDescription;
    std::vector<Choice> mChoices;
};

} // namespace marionette::app
