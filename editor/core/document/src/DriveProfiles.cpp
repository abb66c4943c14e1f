#include "marionette/editor/document/DriveProfiles.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <set>

namespace marionette::editor {

std::vector<ElementRef> driveParts(const rig::RigDescription& rig)
{
    std::vector<ElementRef> out;
    for (const rig::Triangle& t : rig.triangles)
        out.push_back({ElementKind::Triangle, t.id});
    std::vector<char> stick(rig.sticks.size(), 0);
    auto mark = [&](std::int32_t i) {
        if (i >= 0 && std::size_t(i) < stick.size())
            stick[std::size_t(i)] = 1;
    };
    for (const rig::BoneBinding& b : rig.bindings)
        if (b.driver == rig::BoneBinding::Driver::Stick)
            mark(b.index);
    for (const rig::DriveProfile& p : rig.driveProfiles)
        for (const rig::DrivePart& q : p.parts)
            if (q.kind == rig::DrivePartKind::Stick)
                mark(q.index);
    for (std::size_t i = 0; i < rig.sticks.size(); ++i)
        if (stick[i])
            out.push_back({ElementKind::Stick, rig.sticks[i].id});
    return out;
}

ElementKind elementKindOf(rig::DrivePartKind kind)
{
    return kind == rig::DrivePartKind::Stick ? ElementKind::Stick : ElementKind::Triangle;
}

bool drivePartKindOf(ElementKind kind, rig::DrivePartKind& out)
{
    if (kind == ElementKind::Triangle)
        out = rig::DrivePartKind::Triangle;
    else if (kind == ElementKind::Stick)
        out = rig::DrivePartKind::Stick;
    else
        return false;
    return true;
}

std::int32_t driveProfileIndex(const rig::RigDescription& rig, rig::ElementId id)
{
    if (id == 0)
        return rig::kNone;
    for (std::size_t i = 0; i < rig.driveProfiles.size(); ++i)
        if (rig.driveProfiles[i].id == id)
            return std::int32_t(i);
    return rig::kNone;
}

std::int32_t driveProfileNamed(const rig::RigDescription& rig, const QString& name)
{
    const std::string utf8 = name.toStdString();
    for (std::size_t i = 0; i < rig.driveProfiles.size(); ++i)
        if (rig.driveProfiles[i].name == utf8)
            return std::int32_t(i);
    return rig::kNone;
}

rig::ElementId nextDriveProfileId(const rig::RigDescription& rig)
{
    rig::ElementId most = 0;
    for (const rig::DriveProfile& p : rig.driveProfiles)
        most = std::max(most, p.id);
    return most + 1;
}

QString uniqueDriveProfileName(const rig::RigDescription& rig, const QString& base)
{
    const QString stem = base.trimmed().isEmpty() ? QStringLiteral("profile") : base.trimmed();
    if (driveProfileNamed(rig, stem) == rig::kNone)
        return stem;
    for (int n = 2;; ++n)
        if (const QString name = QStringLiteral("%1 %2").arg(stem).arg(n); driveProfileNamed(rig, name) == rig::kNone)
            return name;
}

std::size_t assignDriveProfileIds(rig::RigDescription& rig)
{
    std::set<rig::ElementId> seen;
    std::size_t given = 0;
    for (rig::DriveProfile& p : rig.driveProfiles) {
        if (p.id != 0 && seen.insert(p.id).second)
            continue;
        p.id = nextDriveProfileId(rig); // past every id in use, this one's (0 or a repeat) included
        seen.insert(p.id);
        ++given;
    }
    return given;
}

std::vector<std::string> carryDriveProfiles(const rig::RigDescription& from, rig::RigDescription& onto)
{
    std::vector<std::string> dropped;
    for (const rig::DriveProfile& old : from.driveProfiles) {
        rig::DriveProfile carried = old;
        carried.parts.clear();
        for (const rig::DrivePart& part : old.parts) {
            const ElementKind kind = elementKindOf(part.kind);
            if (part.index < 0 || std::size_t(part.index) >= countOf(from, kind))
                continue;
            const std::string& name = nameAt(from, kind, std::size_t(part.index));
            std::int32_t now = rig::kNone;
            for (std::size_t i = 0; i < countOf(onto, kind) && now == rig::kNone && !name.empty(); ++i)
                if (nameAt(onto, kind, i) == name)
                    now = std::int32_t(i);
            if (now == rig::kNone) {
                dropped.push_back(old.name + ": " + (name.empty() ? std::string("(unnamed)") : name));
                continue;
            }
            carried.parts.push_back({part.kind, now, part.gains});
        }
        auto same = std::find_if(onto.driveProfiles.begin(), onto.driveProfiles.end(),
                                 [&](const rig::DriveProfile& p) { return p.name == old.name; });
        if (same != onto.driveProfiles.end())
            *same = std::move(carried);
        else
            onto.driveProfiles.push_back(std::move(carried));
    }
    return dropped;
}

const rig::DrivePart* findDrivePart(const rig::RigDescription& rig, const rig::DriveProfile& profile, ElementRef part)
{
    rig::DrivePartKind kind;
    if (!drivePartKindOf(part.kind, kind))
        return nullptr;
    const std::int32_t index = indexOf(rig, part);
    if (index == rig::kNone)
        return nullptr;
    for (const rig::DrivePart& p : profile.parts)
        if (p.kind == kind && p.index == index)
            return &p;
    return nullptr;
}

rig::DriveGains driveGainsOf(const rig::RigDescription& rig, const rig::DriveProfile& profile, ElementRef part)
{
    const rig::DrivePart* p = findDrivePart(rig, profile, part);
    return p ? p->gains : profile.defaults;
}

std::optional<rig::DriveGains> driveEntry(const rig::RigDescription& rig, const rig::DriveProfile& profile,
                                          ElementRef part)
{
    const rig::DrivePart* e = findDrivePart(rig, profile, part);
    return e ? std::optional<rig::DriveGains>(e->gains) : std::nullopt;
}

void setDriveEntry(const rig::RigDescription& rig, rig::DriveProfile& profile, ElementRef part,
                   const std::optional<rig::DriveGains>& gains)
{
    rig::DrivePartKind kind;
    const std::int32_t index = indexOf(rig, part);
    if (!drivePartKindOf(part.kind, kind) || index == rig::kNone)
        return;
    auto it = std::find_if(profile.parts.begin(), profile.parts.end(),
                           [&](const rig::DrivePart& p) { return p.kind == kind && p.index == index; });
    if (!gains) {
        if (it != profile.parts.end())
            profile.parts.erase(it);
    } else if (it != profile.parts.end())
        it->gains = *gains;
    else
        profile.parts.push_back({kind, index, *gains});
}

std::vector<ElementRef> listedDriveParts(const rig::RigDescription& rig, const rig::DriveProfile& profile)
{
    std::vector<ElementRef> out;
    for (const rig::DrivePart& p : profile.parts) {
        const ElementKind kind = elementKindOf(p.kind);
        if (p.index >= 0 && std::size_t(p.index) < countOf(rig, kind))
            out.push_back({kind, idAt(rig, kind, std::size_t(p.index))});
    }
    return out;
}

namespace {

const QString kKinematic = QStringLiteral("kinematic");

const rig::DriveGainField* fieldOf(const QString& key)
{
    for (const rig::DriveGainField& f : rig::kDriveGainFields)
        if (key == QLatin1String(f.name))
            return &f;
    return nullptr;
}

} // namespace

QStringList driveGainKeys()
{
    QStringList keys;
    for (const rig::DriveGainField& f : rig::kDriveGainFields)
        keys << QString::fromLatin1(f.name);
    keys << kKinematic;
    return keys;
}

QString driveGainLabel(const QString& key)
{
    auto tr = [](const char* text) { return QCoreApplication::translate("DriveProfiles", text); };
    if (key == QLatin1String("motorFrequency"))
        return tr("Motor Hz");
    if (key == QLatin1String("motorDamping"))
        return tr("Motor damping");
    if (key == QLatin1String("maxTorque"))
        return tr("Max torque (N·m)");
    if (key == QLatin1String("pinFrequency"))
        return tr("Pin Hz");
    if (key == QLatin1String("pinDamping"))
        return tr("Pin damping");
    if (key == QLatin1String("maxForce"))
        return tr("Max force (N)");
    if (key == kKinematic)
        return tr("Kinematic");
    return key;
}

QVariant driveGain(const rig::DriveGains& gains, const QString& key)
{
    if (key == kKinematic)
        return gains.kinematic;
    if (const rig::DriveGainField* f = fieldOf(key))
        return double(gains.*(f->member));
    return {};
}

bool setDriveGain(rig::DriveGains& gains, const QString& key, const QVariant& value, QString& error)
{
    if (key == kKinematic) {
        if (value.typeId() != QMetaType::Bool) {
            error = QStringLiteral("kinematic: expected true or false");
            return false;
        }
        gains.kinematic = value.toBool();
        return true;
    }
    const rig::DriveGainField* f = fieldOf(key);
    if (!f) {
        error =
            QStringLiteral("unknown drive gain '%1' (one of %2)").arg(key, driveGainKeys().join(QStringLiteral(", ")));
        return false;
    }
    bool ok = false;
    const double v =
        value.typeId() == QMetaType::Bool || value.typeId() == QMetaType::QString ? 0.0 : value.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0.0 || v > double(f->max)) {
        error = QStringLiteral("%1: %2 is outside [0, %3]")
                    .arg(key, ok ? QString::number(v) : QStringLiteral("'%1'").arg(value.toString()),
                         QString::number(double(f->max)));
        return false;
    }
    gains.*(f->member) = float(v);
    return true;
}

bool checkDriveGains(const rig::DriveGains& gains, QString& error)
{
    for (const rig::DriveGainField& f : rig::kDriveGainFields) {
        const float v = gains.*(f.member);
        if (!(v >= 0.f && v <= f.max)) { // NaN fails too
            error = QStringLiteral("%1: %2 is outside [0, %3]")
                        .arg(QLatin1String(f.name))
                        .arg(double(v))
                        .arg(double(f.max));
            return false;
        }
    }
    return true;
}

bool sameDriveProfiles(const std::vector<rig::DriveProfile>& a, const std::vector<rig::DriveProfile>& b)
{
    auto samePart = [](const rig::DrivePart& x, const rig::DrivePart& y) {
        return x.kind == y.kind && x.index == y.index && x.gains == y.gains;
    };
    auto same = [&](const rig::DriveProfile& x, const rig::DriveProfile& y) {
        return x.name == y.name && x.id == y.id && x.defaults == y.defaults &&
               std::equal(x.parts.begin(), x.parts.end(), y.parts.begin(), y.parts.end(), samePart);
    };
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), same);
}

std::vector<DriveProfileFinding> driveProfileFindings(const rig::RigDescription& rig)
{
    std::vector<DriveProfileFinding> out;
    for (const rig::Finding& f : rig.findings())
        if (f.kind == rig::ElementKind::DriveProfile)
            out.push_back({f.index, QString::fromStdString(f.message)});
    return out;
}

} // namespace marionette::editor
