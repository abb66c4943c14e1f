// Marionette editor — the two dialogs of File ▸ Import Mesh (docs/editor.md, "Importing a mesh"):
// ImportOptionsDialog before the file is read (scale, up axis, strict), ImportResultDialog after (what came
// in, every warning, a proposed scale as one click, then the rig: a template, or keep the current rig).
#pragma once

#include "marionette/import/ImportedScene.h"

#include <QDialog>
#include <QStringList>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;

namespace marionette::app {

/// How to read the file: what the command line's --scale, --up and --strict say.
struct ImportOptions {
    std::optional<float> scale;           ///< metres per file unit, replacing what the file declares
    std::optional<import::UpAxis> upAxis; ///< the file's up axis, replacing what it declares
    bool strict = false;                  ///< refuse a file with any fault a lenient import repairs
};

class ImportOptionsDialog : public QDialog {
    Q_OBJECT
  public:
    /// `path` is shown; `initial` fills the fields (strict from the editor's setting).
    ImportOptionsDialog(const QString& path, const ImportOptions& initial, QWidget* parent = nullptr);
    ImportOptions options() const;

  private:
    QCheckBox* mOverrideScale;
    QDoubleSpinBox* mScale;
    QComboBox* mUpAxis;
    QCheckBox* mStrict;
};

class ImportResultDialog : public QDialog {
    Q_OBJECT
  public:
    /// The dialog's result when the user asks for the proposed scale: import again at proposedScale().
    static constexpr int kReimport = 2;
    /// The rig choices besides a template's name.
    static constexpr const char* kKeepRig = "keep";  ///< keep the project's rig on the new mesh
    static constexpr const char* kNoRig = "none";    ///< no rig yet: place particles by hand

    struct Choice {
        QString name;        ///< a template's short name, kKeepRig or kNoRig
        QString label;       ///< shown in the list
        QString description; ///< shown under it
    };
    /// `summary` says what came in; `warnings` are the import's lines; `proposedScale` (when set) becomes a
    /// button "Import at scale S"; `choices` lists what to do with the rig, the first selected unless
    /// `preferred` names another.
    ImportResultDialog(const QString& summary, const QStringList& warnings, std::optional<float> proposedScale,
                       const std::vector<Choice>& choices, const QString& preferred, QWidget* parent = nullptr);

    QString choice() const;     ///< a template's short name, kKeepRig or kNoRig
    float totalMass() const;
    std::optional<float> proposedScale() const { return mProposedScale; }

  private:
    QComboBox* mChoice;
    QDoubleSpinBox* mMass;
    QLabel* mDescription;
    std::vector<Choice> mChoices;
    std::optional<float> mProposedScale;
};

} // namespace marionette::app
