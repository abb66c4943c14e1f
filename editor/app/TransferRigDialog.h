// Marionette editor — File ▸ Transfer Rig to Mesh…'s options: an optional bone map file (JSON pairing the
// rig's bones with the mesh's) and the total mass of the transferred rig (the current rig's by default).
#pragma once

#include <QDialog>

class QDoubleSpinBox;
class QLineEdit;

namespace marionette::app {

class TransferRigDialog : public QDialog {
    Q_OBJECT
  public:
    /// `meshPath`: the chosen mesh (shown); `totalMass`: the current rig's total, kg.
    TransferRigDialog(const QString& meshPath, float totalMass, QWidget* parent = nullptr);

    QString mapPath() const; ///< empty: bones pair by name, humanoid parts and naming schemes
    float totalMass() const;

  private:
    QLineEdit* mMap;
    QDoubleSpinBox* mMass;
};

} // namespace marionette::app
