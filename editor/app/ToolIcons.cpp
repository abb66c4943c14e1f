#include "ToolIcons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

#include <cmath>

namespace marionette::app {

namespace {

constexpr int kSize = 32; // drawn at 32 px, scaled by the style to the tool bar's icon size

void dot(QPainter& p, QPointF c, double r)
{
    p.drawEllipse(c, r, r);
}

void arrowHead(QPainter& p, QPointF tip, QPointF from)
{
    const QPointF d = tip - from;
    const double len = std::hypot(d.x(), d.y());
    if (len <= 0.0)
        return;
    const QPointF u = d / len, n(-u.y(), u.x());
    QPainterPath head;
    head.moveTo(tip);
    head.lineTo(tip - u * 6.0 + n * 4.0);
    head.lineTo(tip - u * 6.0 - n * 4.0);
    head.closeSubpath();
    p.fillPath(head, p.pen().color());
}

} // namespace

QIcon toolIcon(Tool tool, const QPalette& palette)
{
    QPixmap pixmap(kSize, kSize);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor ink = palette.color(QPalette::WindowText);
    const QColor particle(90, 166, 255);
    QPen pen(ink, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    const QPointF a(7, 25), b(25, 7);
    auto ends = [&] {
        p.setPen(Qt::NoPen);
        p.setBrush(particle);
        dot(p, a, 4.5);
        dot(p, b, 4.5);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
    };
    switch (tool) {
    case Tool::Select: {
        QPainterPath arrow;
        arrow.moveTo(9, 4);
        arrow.lineTo(9, 24);
        arrow.lineTo(14, 19);
        arrow.lineTo(18, 28);
        arrow.lineTo(21, 26);
        arrow.lineTo(17, 18);
        arrow.lineTo(24, 18);
        arrow.closeSubpath();
        p.setBrush(palette.color(QPalette::Base));
        p.drawPath(arrow);
        break;
    }
    case Tool::AddParticle:
        p.setPen(Qt::NoPen);
        p.setBrush(particle);
        dot(p, QPointF(13, 19), 9);
        p.setPen(pen);
        p.drawLine(QPointF(25, 3), QPointF(25, 13));
        p.drawLine(QPointF(20, 8), QPointF(30, 8));
        break;
    case Tool::AddStick:
        p.setPen(QPen(ink, 3.0, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(a, b);
        ends();
        break;
    case Tool::AddRange:
        p.setPen(QPen(ink, 2.0, Qt::DashLine, Qt::RoundCap));
        p.drawLine(a, b);
        p.setPen(pen);
        ends();
        arrowHead(p, QPointF(11, 14), QPointF(16, 16));
        arrowHead(p, QPointF(21, 18), QPointF(16, 16));
        break;
    case Tool::AddMinOnly: // the ends may not come closer: arrows pushing them apart
        p.setPen(QPen(ink, 1.5, Qt::DotLine));
        p.drawLine(a, b);
        p.setPen(pen);
        ends();
        p.drawLine(QPointF(16, 16), QPointF(11, 21));
        p.drawLine(QPointF(16, 16), QPointF(21, 11));
        arrowHead(p, QPointF(10, 22), QPointF(16, 16));
        arrowHead(p, QPointF(22, 10), QPointF(16, 16));
        break;
    case Tool::AddMaxOnly: // a rope: the ends may not part further
        p.setPen(QPen(ink, 2.0, Qt::SolidLine, Qt::RoundCap));
        {
            QPainterPath rope;
            rope.moveTo(a);
            rope.cubicTo(QPointF(8, 12), QPointF(24, 20), b);
            p.drawPath(rope);
        }
        p.setPen(pen);
        ends();
        break;
    case Tool::MakeTriangle: {
        const QPointF t[3] = {QPointF(6, 26), QPointF(26, 26), QPointF(16, 6)};
        p.setBrush(QColor(particle.red(), particle.green(), particle.blue(), 70));
        p.drawPolygon(t, 3);
        p.setPen(Qt::NoPen);
        p.setBrush(particle);
        for (const QPointF& c : t)
            dot(p, c, 3.5);
        break;
    }
    case Tool::AddAngular: {
        const QPointF o(8, 25);
        p.drawLine(o, QPointF(28, 25));
        p.drawLine(o, QPointF(22, 8));
        p.setPen(QPen(QColor(255, 160, 60), 2.0));
        p.drawArc(QRectF(o.x() - 12, o.y() - 12, 24, 24), 0, 70 * 16);
        p.setPen(Qt::NoPen);
        p.setBrush(particle);
        dot(p, o, 3.5);
        break;
    }
    }
    p.end();
    return QIcon(pixmap);
}

} // namespace marionette::app
