#include "GlProbe.h"

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>

namespace marionette::app {

void setDefaultSurfaceFormat()
{
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    format.setSamples(4);
    QSurfaceFormat::setDefaultFormat(format);
}

QString probeOpenGl()
{
    if (qEnvironmentVariableIntValue("MARIONETTE_NO_OPENGL") != 0)
        return QStringLiteral("OpenGL is switched off (MARIONETTE_NO_OPENGL is set)");
    if (QGuiApplication::platformName() == QLatin1String("offscreen") ||
        QGuiApplication::platformName() == QLatin1String("minimal"))
        return QStringLiteral("the '%1' display platform has no OpenGL windows").arg(QGuiApplication::platformName());
    QOpenGLContext context;
    QSurfaceFormat wanted = QSurfaceFormat::defaultFormat();
    wanted.setVersion(3, 3);
    wanted.setProfile(QSurfaceFormat::CoreProfile);
    context.setFormat(wanted);
    if (!context.create())
        return QStringLiteral("no OpenGL context could be created");
    QOffscreenSurface surface;
    surface.setFormat(context.format());
    surface.create();
    if (!context.makeCurrent(&surface))
        return QStringLiteral("the OpenGL context could not be made current");
    const QSurfaceFormat got = context.format();
    const auto* renderer = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    const QString name = renderer ? QString::fromLatin1(renderer) : QStringLiteral("unknown renderer");
    context.doneCurrent();
    if (got.version() < qMakePair(3, 3) || (got.profile() != QSurfaceFormat::CoreProfile && got.version() < qMakePair(3, 2)))
        return QStringLiteral("OpenGL 3.3 core is not available (got %1.%2 from %3)")
            .arg(got.majorVersion()).arg(got.minorVersion()).arg(name);
    return {};
}

} // namespace marionette::app
