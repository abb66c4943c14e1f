// Marionette — internal helpers of the project reader, writer and migrations: JSON paths for messages,
// typed conversion of JSON values with one-line errors, and exact float encoding.
//
// Readers stop at the first problem by throwing JsonError, which never leaves the library: the public
// functions catch it and turn it into a message.
#pragma once

#include "marionette/Math.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace marionette::project::detail {

/// A position in a JSON document, printed as "$.rig.sticks[3].b". Nodes live on the stack as a reader
/// descends and point to their parent; the string is only built when a message needs it. A child must not
/// outlive its parent, so children of temporaries cannot be made: name each level (`const JsonPath rig =
/// root.key("rig");`) before descending further.
class JsonPath {
  public:
    JsonPath() = default; ///< the root, "$"
    JsonPath key(const char* name) const& { return JsonPath(this, name, -1); }
    JsonPath index(qsizetype i) const& { return JsonPath(this, nullptr, i); }
    JsonPath key(const char*) const&& = delete;
    JsonPath index(qsizetype) const&& = delete;
    QString toString() const;
    /// toString() plus ".name" (or ["name"] when it is not a plain identifier), for keys read from a file.
    QString withKey(const QString& name) const;

  private:
    JsonPath(const JsonPath* parent, const char* name, qsizetype i) : mParent(parent), mKey(name), mIndex(i) {}
    const JsonPath* mParent = nullptr;
    const char* mKey = nullptr;
    qsizetype mIndex = -1;
};

/// The first problem found, as "$.path: message".
struct JsonError {
    QString message;
};

[[noreturn]] void fail(const JsonPath& path, const QString& what);
[[noreturn]] void fail(const QString& path, const QString& what);

/// "a string", "an array", "null", ... for "expected X, found Y".
QString describeValue(const QJsonValue& v);
/// Shortest decimal that reads back as `d`.
QString formatNumber(double d);

// ---- reading -----------------------------------------------------------------------------------------

double toNumber(const QJsonValue& v, const JsonPath& at);
/// An integer in [lo, hi] (|lo|, |hi| <= 2^53).
std::int64_t toInteger(const QJsonValue& v, const JsonPath& at, std::int64_t lo, std::int64_t hi);
QJsonObject toObject(const QJsonValue& v, const JsonPath& at);
QJsonArray toArray(const QJsonValue& v, const JsonPath& at);
/// An array of exactly `n` elements.
QJsonArray toArray(const QJsonValue& v, const JsonPath& at, qsizetype n);

void convert(const QJsonValue& v, const JsonPath& at, float& out); ///< number within ±FLT_MAX
void convert(const QJsonValue& v, const JsonPath& at, double& out);
void convert(const QJsonValue& v, const JsonPath& at, bool& out);
void convert(const QJsonValue& v, const JsonPath& at, std::uint32_t& out);
void convert(const QJsonValue& v, const JsonPath& at, QString& out);
void convert(const QJsonValue& v, const JsonPath& at, std::string& out); ///< UTF-8
void convert(const QJsonValue& v, const JsonPath& at, Vec3& out);        ///< [x, y, z]
void convert(const QJsonValue& v, const JsonPath& at, Quat& out);        ///< [x, y, z, w]
void convert(const QJsonValue& v, const JsonPath& at, Mat4& out);        ///< 16 numbers, column-major
void convert(const QJsonValue& v, const JsonPath& at, Transform& out);   ///< {"rotation", "translation"}

/// One entry of an enum's spelling table.
template <class E> struct EnumName {
    const char* name;
    E value;
};

/// Reads a string naming one of `names`; `what` names the enum in the message ("stick kind").
template <class E>
E toEnum(const QJsonValue& v, const JsonPath& at, std::span<const EnumName<E>> names, const char* what)
{
    if (!v.isString())
        fail(at, QStringLiteral("expected a string, found %1").arg(describeValue(v)));
    const QString s = v.toString();
    for (const EnumName<E>& n : names)
        if (s == QLatin1StringView(n.name))
            return n.value;
    QString expected;
    std::size_t i = 0;
    for (const EnumName<E>& n : names) {
        if (i > 0)
            expected += i + 1 == names.size() ? QStringLiteral(" or ") : QStringLiteral(", ");
        expected += QLatin1StringView(n.name);
        ++i;
    }
    fail(at, QStringLiteral("unknown %1 \"%2\" (expected %3)").arg(QLatin1StringView(what), s, expected));
}

/// Spelling of `value` in `names`, or nullptr when the value has none (a corrupt enum in memory).
template <class E> const char* enumName(E value, std::span<const EnumName<E>> names)
{
    for (const EnumName<E>& n : names)
        if (n.value == value)
            return n.name;
    return nullptr;
}

/// Reads the fields of one JSON object, remembering which keys were used so that finish() can reject
/// the others: the schema is closed, a misspelt key is an error rather than a silently lost value.
class ObjectReader {
  public:
    ObjectReader(const QJsonValue& v, const JsonPath& at) : mObject(toObject(v, at)), mPath(at) {}

    const JsonPath& path() const { return mPath; }
    bool has(const char* key) const { return mObject.contains(QLatin1StringView(key)); }
    /// The value (Undefined when absent), marking the key as used.
    QJsonValue take(const char* key);
    /// The value, failing with "missing required field" when absent.
    QJsonValue require(const char* key);

    template <class T> void required(const char* key, T& out)
    {
        const QJsonValue v = require(key);
        convert(v, mPath.key(key), out);
    }
    /// Leaves `out` (the default) as is when the key is absent.
    template <class T> void optional(const char* key, T& out)
    {
        const QJsonValue v = take(key);
        if (!v.isUndefined())
            convert(v, mPath.key(key), out);
    }
    /// Fails on the first key that no take()/require() asked for.
    void finish() const;

  private:
    QJsonObject mObject;
    JsonPath mPath;
    std::vector<const char*> mUsed;
};

// ---- writing -----------------------------------------------------------------------------------------

/// A float as the JSON number with the fewest digits that reads back (through double) as the same float:
/// 0.1f is written 0.1, not 0.10000000149011612. Negative zero is written as 0 (Qt writes -0.0 as 0).
/// NaN and infinity have no JSON form: they fail with the path.
QJsonValue floatValue(float f, const JsonPath& at);
QJsonValue doubleValue(double d, const JsonPath& at);
QJsonArray vec3Value(Vec3 v, const JsonPath& at);
QJsonArray quatValue(Quat q, const JsonPath& at);
QJsonArray mat4Value(const Mat4& m, const JsonPath& at);
QJsonObject transformValue(const Transform& t, const JsonPath& at);
QJsonValue stringValue(const std::string& utf8);

/// Builds one JSON object; numbers are checked (finite) with the path of their key.
class ObjectWriter {
  public:
    explicit ObjectWriter(const JsonPath& at) : mPath(at) {}
    const JsonPath& path() const { return mPath; }
    const QJsonObject& object() const { return mObject; }

    void put(const char* key, float v) { set(key, floatValue(v, mPath.key(key))); }
    void put(const char* key, double v) { set(key, doubleValue(v, mPath.key(key))); }
    void put(const char* key, bool v) { set(key, QJsonValue(v)); }
    void put(const char* key, std::uint32_t v) { set(key, QJsonValue(qint64(v))); }
    void put(const char* key, Vec3 v) { set(key, vec3Value(v, mPath.key(key))); }
    void put(const char* key, Quat q) { set(key, quatValue(q, mPath.key(key))); }
    void put(const char* key, const Mat4& m) { set(key, mat4Value(m, mPath.key(key))); }
    void put(const char* key, const Transform& t) { set(key, transformValue(t, mPath.key(key))); }
    void putString(const char* key, const std::string& utf8) { set(key, stringValue(utf8)); }
    void putString(const char* key, const QString& s) { set(key, QJsonValue(s)); }
    void set(const char* key, const QJsonValue& v) { mObject.insert(QLatin1StringView(key), v); }

  private:
    QJsonObject mObject;
    JsonPath mPath;
};

/// Spelling of an enum value for writing; fails when the value has none.
template <class E>
QJsonValue enumValue(E value, std::span<const EnumName<E>> names, const JsonPath& at, const char* what)
{
    const char* name = enumName<E>(value, names);
    if (!name)
        fail(at, QStringLiteral("unknown %1 %2 cannot be saved").arg(QLatin1StringView(what)).arg(int(value)));
    return QString::fromLatin1(name);
}

/// Reads an optional enum field; `out` keeps its value when the key is absent.
template <class E>
void optionalEnum(ObjectReader& o, const char* key, E& out, std::span<const EnumName<E>> names, const char* what)
{
    const QJsonValue v = o.take(key);
    if (!v.isUndefined())
        out = toEnum<E>(v, o.path().key(key), names, what);
}

} // namespace marionette::project::detail
