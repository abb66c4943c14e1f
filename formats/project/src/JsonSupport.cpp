#include "JsonSupport.h"

#include "marionette/project/JsonNumbers.h"

#include <QLocale>

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>

namespace marionette::project::detail {

namespace {

bool isIdentifier(const QString& s)
{
    if (s.isEmpty())
        return false;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        const bool letter = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || c == u'_';
        if (!letter && !(i > 0 && c >= u'0' && c <= u'9'))
            return false;
    }
    return true;
}

QString quotedKey(const QString& name)
{
    QString q;
    for (const QChar c : name) {
        if (c == u'\\' || c == u'"')
            q += u'\\' + QString(c);
        else if (c == u'\n')
            q += QStringLiteral("\\n");
        else if (c.unicode() < 0x20)
            q += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            q += c;
    }
    return QStringLiteral("[\"%1\"]").arg(q);
}

} // namespace

QString JsonPath::toString() const
{
    std::vector<const JsonPath*> chain;
    for (const JsonPath* p = this; p; p = p->mParent)
        chain.push_back(p);
    QString s = QStringLiteral("$");
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const JsonPath& p = **it;
        if (p.mKey)
            s += u'.' + QLatin1StringView(p.mKey);
        else if (p.mIndex >= 0)
            s += u'[' + QString::number(p.mIndex) + u']';
    }
    return s;
}

QString JsonPath::withKey(const QString& name) const
{
    return toString() + (isIdentifier(name) ? u'.' + name : quotedKey(name));
}

void fail(const JsonPath& path, const QString& what)
{
    throw JsonError{path.toString() + QStringLiteral(": ") + what};
}
void fail(const QString& path, const QString& what)
{
    throw JsonError{path + QStringLiteral(": ") + what};
}

QString describeValue(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

QString formatNumber(double d)
{
    return QString::number(d, 'g', QLocale::FloatingPointShortest);
}

// ---- reading -----------------------------------------------------------------------------------------

double toNumber(const QJsonValue& v, const JsonPath& at)
{
    if (!v.isDouble())
        fail(at, QStringLiteral("expected a number, found %1").arg(describeValue(v)));
    return v.toDouble(); // Qt's parser refuses NaN, infinities and numbers beyond double's range
}

std::int64_t toInteger(const QJsonValue& v, const JsonPath& at, std::int64_t lo, std::int64_t hi)
{
    if (!v.isDouble())
        fail(at, QStringLiteral("expected an integer, found %1").arg(describeValue(v)));
    const double d = v.toDouble();
    if (d != std::trunc(d))
        fail(at, QStringLiteral("expected an integer, found %1").arg(formatNumber(d)));
    if (d < double(lo) || d > double(hi))
        fail(at, QStringLiteral("%1 is outside [%2, %3]").arg(formatNumber(d)).arg(lo).arg(hi));
    return static_cast<std::int64_t>(d);
}

QJsonObject toObject(const QJsonValue& v, const JsonPath& at)
{
    if (!v.isObject())
        fail(at, QStringLiteral("expected an object, found %1").arg(describeValue(v)));
    return v.toObject();
}

QJsonArray toArray(const QJsonValue& v, const JsonPath& at)
{
    if (!v.isArray())
        fail(at, QStringLiteral("expected an array, found %1").arg(describeValue(v)));
    return v.toArray();
}

QJsonArray toArray(const QJsonValue& v, const JsonPath& at, qsizetype n)
{
    if (!v.isArray())
        fail(at, QStringLiteral("expected an array of %1 numbers, found %2").arg(n).arg(describeValue(v)));
    QJsonArray a = v.toArray();
    if (a.size() != n)
        fail(at, QStringLiteral("expected %1 numbers, found %2").arg(n).arg(a.size()));
    return a;
}

void convert(const QJsonValue& v, const JsonPath& at, float& out)
{
    const double d = toNumber(v, at);
    // Doubles below the midpoint between FLT_MAX and 2^128 round to a finite float (the shortest text of
    // FLT_MAX, 3.4028235e+38, is such a double); from the midpoint on they would round to infinity.
    static const double kFloatLimit = std::ldexp(2.0 - std::ldexp(1.0, -24), 127);
    if (!(std::fabs(d) < kFloatLimit))
        fail(at, QStringLiteral("%1 does not fit a 32-bit float").arg(formatNumber(d)));
    out = static_cast<float>(d);
}

void convert(const QJsonValue& v, const JsonPath& at, double& out)
{
    out = toNumber(v, at);
}

void convert(const QJsonValue& v, const JsonPath& at, bool& out)
{
    if (!v.isBool())
        fail(at, QStringLiteral("expected true or false, found %1").arg(describeValue(v)));
    out = v.toBool();
}

void convert(const QJsonValue& v, const JsonPath& at, std::uint32_t& out)
{
    out = static_cast<std::uint32_t>(toInteger(v, at, 0, 0xffffffffll));
}

void convert(const QJsonValue& v, const JsonPath& at, QString& out)
{
    if (!v.isString())
        fail(at, QStringLiteral("expected a string, found %1").arg(describeValue(v)));
    out = v.toString();
}

void convert(const QJsonValue& v, const JsonPath& at, std::string& out)
{
    QString s;
    convert(v, at, s);
    out = s.toStdString();
}

void convert(const QJsonValue& v, const JsonPath& at, Vec3& out)
{
    const QJsonArray a = toArray(v, at, 3);
    Vec3 r;
    convert(a[0], at.index(0), r.x);
    convert(a[1], at.index(1), r.y);
    convert(a[2], at.index(2), r.z);
    out = r;
}

void convert(const QJsonValue& v, const JsonPath& at, Quat& out)
{
    const QJsonArray a = toArray(v, at, 4);
    Quat r;
    convert(a[0], at.index(0), r.x);
    convert(a[1], at.index(1), r.y);
    convert(a[2], at.index(2), r.z);
    convert(a[3], at.index(3), r.w);
    out = r;
}

void convert(const QJsonValue& v, const JsonPath& at, Mat4& out)
{
    const QJsonArray a = toArray(v, at, 16);
    Mat4 r;
    for (qsizetype i = 0; i < 16; ++i)
        convert(a[i], at.index(i), r.m[i]);
    out = r;
}

void convert(const QJsonValue& v, const JsonPath& at, Transform& out)
{
    ObjectReader o(v, at);
    Transform t;
    o.required("rotation", t.rotation);
    o.required("translation", t.translation);
    o.finish();
    out = t;
}

QJsonValue ObjectReader::take(const char* key)
{
    mUsed.push_back(key);
    return mObject.value(QLatin1StringView(key));
}

QJsonValue ObjectReader::require(const char* key)
{
    const QJsonValue v = take(key);
    if (v.isUndefined())
        fail(mPath.key(key), QStringLiteral("missing required field"));
    return v;
}

void ObjectReader::finish() const
{
    for (auto it = mObject.begin(); it != mObject.end(); ++it) {
        const QString k = it.key();
        bool used = false;
        for (const char* u : mUsed)
            used = used || k == QLatin1StringView(u);
        if (!used)
            fail(mPath.withKey(k), QStringLiteral("unknown field"));
    }
}

// ---- writing -----------------------------------------------------------------------------------------

QJsonValue floatValue(float f, const JsonPath& at)
{
    if (!std::isfinite(f))
        fail(at, QStringLiteral("%1 cannot be saved (not a finite number)").arg(formatNumber(double(f))));
    return QJsonValue(shortestDouble(f));
}

QJsonValue doubleValue(double d, const JsonPath& at)
{
    if (!std::isfinite(d))
        fail(at, QStringLiteral("%1 cannot be saved (not a finite number)").arg(formatNumber(d)));
    return QJsonValue(d);
}

QJsonArray vec3Value(Vec3 v, const JsonPath& at)
{
    return {floatValue(v.x, at.index(0)), floatValue(v.y, at.index(1)), floatValue(v.z, at.index(2))};
}

QJsonArray quatValue(Quat q, const JsonPath& at)
{
    return {floatValue(q.x, at.index(0)), floatValue(q.y, at.index(1)), floatValue(q.z, at.index(2)),
            floatValue(q.w, at.index(3))};
}

QJsonArray mat4Value(const Mat4& m, const JsonPath& at)
{
    QJsonArray a;
    for (qsizetype i = 0; i < 16; ++i)
        a.append(floatValue(m.m[i], at.index(i)));
    return a;
}

QJsonObject transformValue(const Transform& t, const JsonPath& at)
{
    QJsonObject o;
    o.insert(QStringLiteral("rotation"), quatValue(t.rotation, at.key("rotation")));
    o.insert(QStringLiteral("translation"), vec3Value(t.translation, at.key("translation")));
    return o;
}

QJsonValue stringValue(const std::string& utf8)
{
    return QString::fromStdString(utf8);
}

} // namespace marionette::project::detail

namespace marionette::project {

double shortestDouble(float f)
{
    char buffer[64];
    const std::to_chars_result written = std::to_chars(buffer, buffer + sizeof buffer, f);
    double d = 0.0;
    const std::from_chars_result parsed = std::from_chars(buffer, written.ptr, d);
    if (written.ec != std::errc() || parsed.ec != std::errc() || static_cast<float>(d) != f)
        d = static_cast<double>(f);
    return d;
}

} // namespace marionette::project
