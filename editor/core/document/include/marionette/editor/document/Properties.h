// Marionette — the editable properties of each kind of rig element, and of the rig's settings: what the
// properties panel shows and what ChangePropertyCommand writes. One table drives the panel, the command,
// validation of typed values and the tests, so a property is added in one place.
#pragma once

#include "marionette/editor/document/RigEdit.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>
#include <vector>

namespace marionette::editor {

enum class PropertyType {
    Float,   ///< QVariant double, shown × displayScale in `unit`
    UInt,    ///< QVariant qulonglong (bit masks, counts)
    Bool,    ///< QVariant bool
    String,  ///< QVariant QString
    Vec3,    ///< QVariant QVariantList of 3 doubles, × displayScale
    Enum,    ///< QVariant int, an index into enumNames
    Element, ///< read-only: the name of a referenced element (QString)
};

struct PropertyDef {
    QString key;            ///< stable identifier, e.g. "radius"
    QString label;          ///< for the panel, e.g. "Radius"
    PropertyType type = PropertyType::Float;
    QString unit;           ///< display unit, e.g. "m", "kg", "°"
    double displayScale = 1; ///< display value = stored value × displayScale (radians -> degrees: 180/π)
    double minimum = -1e9;  ///< stored units, inclusive
    double maximum = 1e9;
    bool minimumExclusive = false; ///< the value must be > minimum
    /// What the minimum stands for, shown instead of the number (e.g. a rest length of −1 is "bind
    /// distance": the distance of the stick's particles at bind); empty when the minimum is just a number.
    QString minimumMeans;
    QStringList enumNames;  ///< Enum: names in value order
    bool readOnly = false;
    QString toolTip;
};

/// The properties of a kind of element, in panel order.
const std::vector<PropertyDef>& propertiesOf(ElementKind kind);
/// The properties of the rig's settings (gravity, time step, iterations, ...).
const std::vector<PropertyDef>& settingsProperties();
/// The definition with that key, or null.
const PropertyDef* findProperty(const std::vector<PropertyDef>& defs, const QString& key);

/// The value of a property of the element at `index` (in stored units). Invalid QVariant for an unknown key.
QVariant readProperty(const rig::RigDescription& rig, ElementKind kind, std::size_t index, const QString& key);
QVariant readSetting(const rig::Settings& settings, const QString& key);

/// Checks `value` against the definition (type, finite, range, enum). Empty when acceptable, else a one-line
/// message such as "Radius: must be at least 0 m".
QString checkValue(const PropertyDef& def, const QVariant& value);

/// Writes a property (the value must pass checkValue()). Returns false for an unknown or read-only key.
bool writeProperty(rig::RigDescription& rig, ElementKind kind, std::size_t index, const QString& key,
    const QVariant& value);
bool writeSetting(rig::Settings& settings, const QString& key, const QVariant& value);

QVariant toVariant(Vec3 v);
std::optional<Vec3> vec3FromVariant(const QVariant& value);

} // namespace marionette::editor
