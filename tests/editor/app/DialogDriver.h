// Answers the next modal dialog the code under test opens (QMessageBox, QDialog), from a timer, the way a
// user would: the test says which button to press and may read the dialog's text first.
#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QDialog>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

struct DialogRecord {
    bool seen = false;
    QString objectName;
    QString text;
};

/// Polls for a modal dialog for up to `timeoutMs`; when one appears, records it and calls `answer` on it.
/// Progress dialogs are not questions (on a slow machine a long job shows one before its answer) and are
/// passed over unless `progressToo`.
inline std::shared_ptr<DialogRecord> answerNextDialog(std::function<void(QDialog*)> answer, int timeoutMs = 20000,
                                                      bool progressToo = false)
{
    auto record = std::make_shared<DialogRecord>();
    auto* timer = new QTimer;
    auto elapsed = std::make_shared<int>(0);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, record, answer, elapsed, timeoutMs, progressToo] {
        *elapsed += 20;
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (dialog && dialog->isVisible() && (progressToo || !qobject_cast<QProgressDialog*>(dialog))) {
            record->seen = true;
            record->objectName = dialog->objectName();
            if (auto* box = qobject_cast<QMessageBox*>(dialog))
                record->text = box->text();
            timer->stop();
            timer->deleteLater();
            answer(dialog);
            return;
        }
        if (*elapsed > timeoutMs) {
            timer->stop();
            timer->deleteLater();
        }
    });
    timer->start(20);
    return record;
}

/// Presses the message box button with this text (or the role's first button), or rejects a dialog.
inline std::function<void(QDialog*)> pressButton(const QString& text)
{
    return [text](QDialog* dialog) {
        if (auto* box = qobject_cast<QMessageBox*>(dialog))
            for (QAbstractButton* b : box->buttons())
                if (b->text().remove(QLatin1Char('&')) == text) {
                    b->click();
                    return;
                }
        dialog->reject();
    };
}
