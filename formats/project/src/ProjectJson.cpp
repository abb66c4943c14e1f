// The document around the rig: format tag and version, source mesh, import settings, editor state and
// scenarios. Values are range-checked by checkDocument() (ProjectCheck.cpp), shared with the writer.
#include "ProjectInternal.h"

#include "marionette/project/Migration.h"

namespace marionette::project::detail {

namespace {

constexpr std::int64_t kMaxId = 0xffffffffll;

constexpr EnumName<ElementKind> kKinds[] = {
    {"particle", ElementKind::Particle}, {"stick", ElementKind::Stick},     {"angle", ElementKind::Angle},
    {"triangle", ElementKind::Triangle}, {"angular", ElementKind::Angular}, {"pin", ElementKind::Pin},
    {"shape", ElementKind::Shape},       {"bone", ElementKind::Bone},       {"binding", ElementKind::Binding},
};
constexpr EnumName<UpAxis> kUpAxes[] = {{"y", UpAxis::Y}, {"z", UpAxis::Z}};
constexpr EnumName<Projection> kProjections[] = {
    {"perspective", Projection::Perspective},
    {"orthographic", Projection::Orthographic},
};
constexpr EnumName<MirrorAxis> kMirrorAxes[] = {{"x", MirrorAxis::X}, {"y", MirrorAxis::Y}, {"z", MirrorAxis::Z}};
constexpr EnumName<Scene> kScenes[] = {
    {"floor", Scene::Floor}, {"stairs", Scene::Stairs}, {"ledge", Scene::Ledge}, {"box", Scene::Box}};
constexpr EnumName<DriveChange::Kind> kDriveChangeKinds[] = {
    {"profile", DriveChange::Kind::Profile}, {"kill", DriveChange::Kind::Kill}, {"getUp", DriveChange::Kind::GetUp}};

// ---- editor state --------------------------------------------------------------------------------------

int hexDigit(QChar c)
{
    if (c >= u'0' && c <= u'9')
        return c.unicode() - u'0';
    if (c >= u'a' && c <= u'f')
        return c.unicode() - u'a' + 10;
    if (c >= u'A' && c <= u'F')
        return c.unicode() - u'A' + 10;
    return -1;
}

Rgba toColour(const QJsonValue& v, const JsonPath& at)
{
    QString s;
    convert(v, at, s);
    bool ok = s.startsWith(u'#') && (s.size() == 7 || s.size() == 9);
    std::uint8_t c[4] = {255, 255, 255, 255};
    for (qsizetype i = 1; ok && i < s.size(); i += 2) {
        const int hi = hexDigit(s[i]), lo = hexDigit(s[i + 1]);
        ok = hi >= 0 && lo >= 0;
        c[(i - 1) / 2] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    if (!ok)
        fail(at, QStringLiteral("expected a colour \"#rrggbb\" or \"#rrggbbaa\", found \"%1\"").arg(s));
    return {c[0], c[1], c[2], c[3]};
}

QString colourText(Rgba c)
{
    const auto hex = [](std::uint8_t v) { return QStringLiteral("%1").arg(v, 2, 16, QLatin1Char('0')); };
    return u'#' + hex(c.r) + hex(c.g) + hex(c.b) + (c.a == 255 ? QString() : hex(c.a));
}

ElementRef readRef(ObjectReader& o)
{
    ElementRef ref;
    ref.kind = toEnum<ElementKind>(o.require("kind"), o.path().key("kind"), kKinds, "element kind");
    ref.id = static_cast<rig::ElementId>(toInteger(o.require("id"), o.path().key("id"), 1, kMaxId));
    return ref;
}

void writeRef(ObjectWriter& w, ElementRef ref)
{
    w.set("kind", enumValue<ElementKind>(ref.kind, kKinds, w.path().key("kind"), "element kind"));
    w.put("id", ref.id);
}

void readEditor(const QJsonValue& value, const JsonPath& at, EditorState& e)
{
    ObjectReader o(value, at);
    const QJsonValue camera = o.take("camera");
    if (!camera.isUndefined()) {
        ObjectReader c(camera, at.key("camera"));
        c.optional("target", e.camera.target);
        c.optional("yawDegrees", e.camera.yawDegrees);
        c.optional("pitchDegrees", e.camera.pitchDegrees);
        c.optional("distance", e.camera.distance);
        optionalEnum<Projection>(c, "projection", e.camera.projection, kProjections, "projection");
        c.optional("fieldOfViewDegrees", e.camera.fieldOfViewDegrees);
        c.finish();
    }
    o.optional("meshOpacity", e.meshOpacity);
    o.optional("xray", e.xray);
    const QJsonValue symmetry = o.take("symmetry");
    if (!symmetry.isUndefined()) {
        ObjectReader m(symmetry, at.key("symmetry"));
        m.optional("enabled", e.symmetry.enabled);
        optionalEnum<MirrorAxis>(m, "axis", e.symmetry.axis, kMirrorAxes, "mirror axis");
        m.optional("offset", e.symmetry.offset);
        m.optional("tolerance", e.symmetry.tolerance);
        m.finish();
    }
    const QJsonValue elements = o.take("elements");
    if (!elements.isUndefined()) {
        const JsonPath list = at.key("elements");
        const QJsonArray a = toArray(elements, list);
        e.elements.reserve(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader v(a[i], list.index(i));
            ElementView view;
            view.element = readRef(v);
            v.optional("visible", view.visible);
            v.optional("locked", view.locked);
            const QJsonValue colour = v.take("colour");
            if (!colour.isUndefined() && !colour.isNull())
                view.colour = toColour(colour, v.path().key("colour"));
            v.finish();
            e.elements.push_back(view);
        }
    }
    const QJsonValue selection = o.take("selection");
    if (!selection.isUndefined()) {
        const JsonPath list = at.key("selection");
        const QJsonArray a = toArray(selection, list);
        e.selection.reserve(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader v(a[i], list.index(i));
            e.selection.push_back(readRef(v));
            v.finish();
        }
    }
    o.finish();
}

QJsonObject writeEditor(const EditorState& e, const JsonPath& at)
{
    ObjectWriter w(at);
    ObjectWriter c(at.key("camera"));
    c.put("target", e.camera.target);
    c.put("yawDegrees", e.camera.yawDegrees);
    c.put("pitchDegrees", e.camera.pitchDegrees);
    c.put("distance", e.camera.distance);
    c.set("projection",
          enumValue<Projection>(e.camera.projection, kProjections, c.path().key("projection"), "projection"));
    c.put("fieldOfViewDegrees", e.camera.fieldOfViewDegrees);
    w.set("camera", c.object());
    w.put("meshOpacity", e.meshOpacity);
    w.put("xray", e.xray);
    if (e.symmetry != SymmetrySettings{}) { // absent when default, so older projects rewrite unchanged
        ObjectWriter m(at.key("symmetry"));
        m.put("enabled", e.symmetry.enabled);
        m.set("axis", enumValue<MirrorAxis>(e.symmetry.axis, kMirrorAxes, m.path().key("axis"), "mirror axis"));
        m.put("offset", e.symmetry.offset);
        m.put("tolerance", e.symmetry.tolerance);
        w.set("symmetry", m.object());
    }
    QJsonArray elements;
    const JsonPath elementsAt = at.key("elements");
    for (std::size_t i = 0; i < e.elements.size(); ++i) {
        const ElementView& view = e.elements[i];
        ObjectWriter v(elementsAt.index(qsizetype(i)));
        writeRef(v, view.element);
        v.put("visible", view.visible);
        v.put("locked", view.locked);
        v.set("colour", view.colour ? QJsonValue(colourText(*view.colour)) : QJsonValue(QJsonValue::Null));
        elements.append(v.object());
    }
    w.set("elements", elements);
    QJsonArray selection;
    const JsonPath selectionAt = at.key("selection");
    for (std::size_t i = 0; i < e.selection.size(); ++i) {
        ObjectWriter v(selectionAt.index(qsizetype(i)));
        writeRef(v, e.selection[i]);
        selection.append(v.object());
    }
    w.set("selection", selection);
    return w.object();
}

// ---- scenarios -----------------------------------------------------------------------------------------

void readScenario(const QJsonValue& value, const JsonPath& at, Scenario& s)
{
    ObjectReader o(value, at);
    o.optional("name", s.name);
    optionalEnum<Scene>(o, "scene", s.scene, kScenes, "scene");
    o.optional("dropHeight", s.dropHeight);
    const QJsonValue rotation = o.take("initialRotation");
    if (!rotation.isUndefined()) {
        ObjectReader r(rotation, at.key("initialRotation"));
        r.optional("random", s.initialRotation.random);
        r.optional("quaternion", s.initialRotation.rotation);
        r.optional("seed", s.initialRotation.seed);
        r.finish();
    }
    o.optional("duration", s.duration);
    const QJsonValue hits = o.take("hits");
    if (!hits.isUndefined()) {
        const JsonPath list = at.key("hits");
        const QJsonArray a = toArray(hits, list);
        s.hits.reserve(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader h(a[i], list.index(i));
            Hit hit;
            h.required("frame", hit.frame);
            const bool particle = h.has("particle"), stick = h.has("stick");
            if (particle == stick)
                fail(h.path(), particle ? QStringLiteral("has both \"particle\" and \"stick\"; a hit has one target")
                                        : QStringLiteral("missing its target: a \"particle\" or a \"stick\" field"));
            const char* key = particle ? "particle" : "stick";
            hit.target.kind = particle ? ElementKind::Particle : ElementKind::Stick;
            hit.target.id = static_cast<rig::ElementId>(toInteger(h.require(key), h.path().key(key), 1, kMaxId));
            h.optional("along", hit.along);
            h.required("impulse", hit.impulse);
            h.finish();
            s.hits.push_back(hit);
        }
    }
    const QJsonValue drags = o.take("drags");
    if (!drags.isUndefined()) {
        const JsonPath list = at.key("drags");
        const QJsonArray a = toArray(drags, list);
        s.drags.reserve(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader d(a[i], list.index(i));
            Drag drag;
            drag.particle =
                static_cast<rig::ElementId>(toInteger(d.require("particle"), d.path().key("particle"), 1, kMaxId));
            d.required("startFrame", drag.startFrame);
            d.required("endFrame", drag.endFrame);
            d.required("target", drag.target);
            d.optional("stiffness", drag.stiffness);
            d.finish();
            s.drags.push_back(drag);
        }
    }
    const QJsonValue explosions = o.take("explosions");
    if (!explosions.isUndefined()) {
        const JsonPath list = at.key("explosions");
        const QJsonArray a = toArray(explosions, list);
        s.explosions.reserve(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader x(a[i], list.index(i));
            Explosion e;
            x.required("frame", e.frame);
            x.required("centre", e.centre);
            x.required("strength", e.strength);
            x.required("radius", e.radius);
            x.finish();
            s.explosions.push_back(e);
        }
    }
    const QJsonValue changes = o.take("settingChanges");
    if (!changes.isUndefined()) {
        const JsonPath list = at.key("settingChanges");
        const QJsonArray a = toArray(changes, list);
        s.settingChanges.reserve(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader c(a[i], list.index(i));
            SettingChange change;
            c.required("frame", change.frame);
            if (c.has("iterations")) {
                std::uint32_t n = 0;
                c.required("iterations", n);
                change.iterations = n;
            }
            if (c.has("timeStep")) {
                float t = 0.f;
                c.required("timeStep", t);
                change.timeStep = t;
            }
            if (c.has("gravity")) {
                bool on = true;
                c.required("gravity", on);
                change.gravity = on;
            }
            c.finish();
            s.settingChanges.push_back(change);
        }
    }
    const QJsonValue animation = o.take("animationStart");
    if (!animation.isUndefined() && !animation.isNull()) {
        ObjectReader a(animation, at.key("animationStart"));
        AnimationStart start;
        a.required("clip", start.clip);
        a.required("time", start.time);
        a.finish();
        s.animationStart = start;
    }
    const QJsonValue driven = o.take("driven");
    if (!driven.isUndefined() && !driven.isNull()) {
        ObjectReader d(driven, at.key("driven"));
        DrivenPlay play;
        d.required("clip", play.clip);
        d.required("profile", play.profile);
        const QJsonValue getUps = d.take("getUpClips");
        if (!getUps.isUndefined()) {
            const JsonPath list = d.path().key("getUpClips");
            const QJsonArray a = toArray(getUps, list);
            for (qsizetype i = 0; i < a.size(); ++i) {
                QString name;
                convert(a[i], list.index(i), name);
                play.getUpClips.push_back(name);
            }
        }
        d.finish();
        s.driven = std::move(play);
    }
    const QJsonValue driveChanges = o.take("driveChanges");
    if (!driveChanges.isUndefined()) {
        const JsonPath list = at.key("driveChanges");
        const QJsonArray a = toArray(driveChanges, list);
        s.driveChanges.reserve(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader c(a[i], list.index(i));
            DriveChange change;
            c.required("frame", change.frame);
            change.kind = toEnum<DriveChange::Kind>(c.require("kind"), c.path().key("kind"), kDriveChangeKinds,
                                                    "drive change");
            c.optional("profile", change.profile);
            c.optional("blend", change.blend);
            c.finish();
            s.driveChanges.push_back(change);
        }
    }
    const QJsonValue expect = o.take("expect");
    if (!expect.isUndefined()) {
        ObjectReader x(expect, at.key("expect"));
        const QJsonValue settle = x.take("settleWithin");
        if (!settle.isUndefined() && !settle.isNull()) {
            float t = 0.f;
            convert(settle, x.path().key("settleWithin"), t);
            s.expect.settleWithin = t;
        }
        x.optional("maxPenetration", s.expect.maxPenetration);
        x.optional("maxLimitViolationDegrees", s.expect.maxLimitViolationDegrees);
        auto optionalFloat = [&](const char* key, std::optional<float>& out) {
            const QJsonValue v = x.take(key);
            if (!v.isUndefined() && !v.isNull()) {
                float f = 0.f;
                convert(v, x.path().key(key), f);
                out = f;
            }
        };
        auto optionalBool = [&](const char* key, std::optional<bool>& out) {
            const QJsonValue v = x.take(key);
            if (!v.isUndefined() && !v.isNull()) {
                bool b = false;
                convert(v, x.path().key(key), b);
                out = b;
            }
        };
        optionalFloat("maxTrackingErrorCm", s.expect.maxTrackingErrorCm);
        optionalFloat("recoverWithin", s.expect.recoverWithin);
        optionalBool("falls", s.expect.falls);
        optionalBool("standsAtEnd", s.expect.standsAtEnd);
        x.finish();
    }
    o.finish();
}

QJsonObject writeScenario(const Scenario& s, const JsonPath& at)
{
    ObjectWriter w(at);
    w.putString("name", s.name);
    w.set("scene", enumValue<Scene>(s.scene, kScenes, at.key("scene"), "scene"));
    w.put("dropHeight", s.dropHeight);
    ObjectWriter r(at.key("initialRotation"));
    r.put("random", s.initialRotation.random);
    r.put("quaternion", s.initialRotation.rotation);
    r.put("seed", s.initialRotation.seed);
    w.set("initialRotation", r.object());
    w.put("duration", s.duration);
    QJsonArray hits;
    const JsonPath hitsAt = at.key("hits");
    for (std::size_t i = 0; i < s.hits.size(); ++i) {
        const Hit& hit = s.hits[i];
        ObjectWriter h(hitsAt.index(qsizetype(i)));
        h.put("frame", hit.frame);
        h.put(hit.target.kind == ElementKind::Particle ? "particle" : "stick", hit.target.id);
        h.put("along", hit.along);
        h.put("impulse", hit.impulse);
        hits.append(h.object());
    }
    w.set("hits", hits);
    QJsonArray drags;
    const JsonPath dragsAt = at.key("drags");
    for (std::size_t i = 0; i < s.drags.size(); ++i) {
        const Drag& drag = s.drags[i];
        ObjectWriter d(dragsAt.index(qsizetype(i)));
        d.put("particle", drag.particle);
        d.put("startFrame", drag.startFrame);
        d.put("endFrame", drag.endFrame);
        d.put("target", drag.target);
        d.put("stiffness", drag.stiffness);
        drags.append(d.object());
    }
    w.set("drags", drags);
    // Written only when used, so a scenario without them reads in builds that predate them.
    if (!s.explosions.empty()) {
        QJsonArray list;
        const JsonPath listAt = at.key("explosions");
        for (std::size_t i = 0; i < s.explosions.size(); ++i) {
            const Explosion& e = s.explosions[i];
            ObjectWriter x(listAt.index(qsizetype(i)));
            x.put("frame", e.frame);
            x.put("centre", e.centre);
            x.put("strength", e.strength);
            x.put("radius", e.radius);
            list.append(x.object());
        }
        w.set("explosions", list);
    }
    if (!s.settingChanges.empty()) {
        QJsonArray list;
        const JsonPath listAt = at.key("settingChanges");
        for (std::size_t i = 0; i < s.settingChanges.size(); ++i) {
            const SettingChange& c = s.settingChanges[i];
            ObjectWriter x(listAt.index(qsizetype(i)));
            x.put("frame", c.frame);
            if (c.iterations)
                x.put("iterations", *c.iterations);
            if (c.timeStep)
                x.put("timeStep", *c.timeStep);
            if (c.gravity)
                x.put("gravity", *c.gravity);
            list.append(x.object());
        }
        w.set("settingChanges", list);
    }
    if (s.animationStart) {
        ObjectWriter a(at.key("animationStart"));
        a.putString("clip", s.animationStart->clip);
        a.put("time", s.animationStart->time);
        w.set("animationStart", a.object());
    }
    if (s.driven) {
        ObjectWriter d(at.key("driven"));
        d.putString("clip", s.driven->clip);
        d.putString("profile", s.driven->profile);
        QJsonArray getUps;
        for (const QString& name : s.driven->getUpClips)
            getUps.append(name);
        d.set("getUpClips", getUps);
        w.set("driven", d.object());
    }
    if (!s.driveChanges.empty()) {
        QJsonArray list;
        const JsonPath listAt = at.key("driveChanges");
        for (std::size_t i = 0; i < s.driveChanges.size(); ++i) {
            const DriveChange& c = s.driveChanges[i];
            const JsonPath cAt = listAt.index(qsizetype(i));
            ObjectWriter x(cAt);
            x.put("frame", c.frame);
            x.set("kind", enumValue<DriveChange::Kind>(c.kind, kDriveChangeKinds, cAt.key("kind"), "drive change"));
            if (c.kind != DriveChange::Kind::Kill && !c.profile.isEmpty())
                x.putString("profile", c.profile);
            x.put("blend", c.blend);
            list.append(x.object());
        }
        w.set("driveChanges", list);
    }
    ObjectWriter x(at.key("expect"));
    if (s.expect.settleWithin)
        x.put("settleWithin", *s.expect.settleWithin);
    else
        x.set("settleWithin", QJsonValue(QJsonValue::Null));
    x.put("maxPenetration", s.expect.maxPenetration);
    x.put("maxLimitViolationDegrees", s.expect.maxLimitViolationDegrees);
    // The driven expectations are written only when set, like the driven play itself.
    if (s.expect.maxTrackingErrorCm)
        x.put("maxTrackingErrorCm", *s.expect.maxTrackingErrorCm);
    if (s.expect.recoverWithin)
        x.put("recoverWithin", *s.expect.recoverWithin);
    if (s.expect.falls)
        x.put("falls", *s.expect.falls);
    if (s.expect.standsAtEnd)
        x.put("standsAtEnd", *s.expect.standsAtEnd);
    w.set("expect", x.object());
    return w.object();
}

// ---- levels of detail ---------------------------------------------------------------------------------

void readLod(const QJsonValue& value, const JsonPath& at, LodLevel& level)
{
    ObjectReader o(value, at);
    level.targetParticles =
        std::uint32_t(toInteger(o.require("targetParticles"), at.key("targetParticles"), 3, 1'000'000));
    readRig(o.require("rig"), at.key("rig"), level.rig);
    const QJsonValue measurement = o.take("measurement");
    if (!measurement.isUndefined() && !measurement.isNull()) {
        ObjectReader m(measurement, at.key("measurement"));
        LodMeasurement lm;
        m.required("errorMeanCm", lm.errorMeanCm);
        m.required("errorMaxCm", lm.errorMaxCm);
        m.required("usPerRagdollStep", lm.usPerRagdollStep);
        m.required("runs", lm.runs);
        m.required("frames", lm.frames);
        m.required("benchRagdolls", lm.benchRagdolls);
        m.required("benchFrames", lm.benchFrames);
        m.finish();
        level.measurement = lm;
    }
    o.finish();
}

QJsonObject writeLod(const LodLevel& level, const JsonPath& at)
{
    ObjectWriter w(at);
    w.put("targetParticles", level.targetParticles);
    w.set("rig", writeRig(level.rig, at.key("rig")));
    if (level.measurement) {
        const LodMeasurement& lm = *level.measurement;
        ObjectWriter m(at.key("measurement"));
        m.put("errorMeanCm", lm.errorMeanCm);
        m.put("errorMaxCm", lm.errorMaxCm);
        m.put("usPerRagdollStep", lm.usPerRagdollStep);
        m.put("runs", lm.runs);
        m.put("frames", lm.frames);
        m.put("benchRagdolls", lm.benchRagdolls);
        m.put("benchFrames", lm.benchFrames);
        w.set("measurement", m.object());
    } else {
        w.set("measurement", QJsonValue(QJsonValue::Null));
    }
    return w.object();
}

} // namespace

// ---- the document --------------------------------------------------------------------------------------

void readDocument(const QJsonObject& root, Project& out)
{
    const JsonPath at;
    ObjectReader o(root, at);
    o.take("format");
    o.take("version");
    Project p;
    o.optional("name", p.name);
    const QJsonValue mesh = o.take("sourceMesh");
    if (!mesh.isUndefined()) {
        ObjectReader m(mesh, at.key("sourceMesh"));
        m.optional("path", p.sourceMesh.path);
        m.optional("sha256", p.sourceMesh.sha256);
        m.finish();
    }
    const QJsonValue importSettings = o.take("import");
    if (!importSettings.isUndefined()) {
        ObjectReader i(importSettings, at.key("import"));
        i.optional("scaleToMetres", p.import.scaleToMetres);
        optionalEnum<UpAxis>(i, "sourceUpAxis", p.import.sourceUpAxis, kUpAxes, "axis");
        i.optional("unitConversionApplied", p.import.unitConversionApplied);
        i.optional("axisConversionApplied", p.import.axisConversionApplied);
        i.optional("flipWindingOrder", p.import.flipWindingOrder);
        i.optional("flipUVs", p.import.flipUVs);
        i.optional("conversionNote", p.import.conversionNote);
        i.finish();
    }
    readRig(o.require("rig"), at.key("rig"), p.rig);
    const QJsonValue editor = o.take("editor");
    if (!editor.isUndefined())
        readEditor(editor, at.key("editor"), p.editor);
    const QJsonValue groups = o.take("collisionGroups");
    if (!groups.isUndefined()) {
        const JsonPath list = at.key("collisionGroups");
        const QJsonArray a = toArray(groups, list);
        for (qsizetype i = 0; i < a.size(); ++i) {
            ObjectReader g(a[i], list.index(i));
            CollisionGroupName name;
            name.bit = int(toInteger(g.require("bit"), g.path().key("bit"), 0, kCollisionGroupBits - 1));
            convert(g.require("name"), g.path().key("name"), name.name);
            g.finish();
            p.collisionGroups.push_back(name);
        }
    }
    const QJsonValue scenarios = o.take("scenarios");
    if (!scenarios.isUndefined()) {
        const JsonPath list = at.key("scenarios");
        const QJsonArray a = toArray(scenarios, list);
        p.scenarios.resize(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i)
            readScenario(a[i], list.index(i), p.scenarios[std::size_t(i)]);
    }
    const QJsonValue lods = o.take("lods");
    if (!lods.isUndefined()) {
        const JsonPath list = at.key("lods");
        const QJsonArray a = toArray(lods, list);
        p.lods.resize(std::size_t(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i)
            readLod(a[i], list.index(i), p.lods[std::size_t(i)]);
    }
    o.finish();
    checkDocument(p, ElementIndex(p.rig));
    out = std::move(p);
}

QJsonObject writeDocument(const Project& p)
{
    const JsonPath at;
    checkDocument(p, ElementIndex(p.rig));
    ObjectWriter w(at);
    w.putString("format", QString::fromLatin1(kProjectFormatTag));
    w.set("version", kProjectVersion);
    w.putString("name", p.name);
    ObjectWriter m(at.key("sourceMesh"));
    m.putString("path", p.sourceMesh.path);
    m.putString("sha256", p.sourceMesh.sha256);
    w.set("sourceMesh", m.object());
    ObjectWriter i(at.key("import"));
    i.put("scaleToMetres", p.import.scaleToMetres);
    i.set("sourceUpAxis", enumValue<UpAxis>(p.import.sourceUpAxis, kUpAxes, i.path().key("sourceUpAxis"), "axis"));
    i.put("unitConversionApplied", p.import.unitConversionApplied);
    i.put("axisConversionApplied", p.import.axisConversionApplied);
    i.put("flipWindingOrder", p.import.flipWindingOrder);
    i.put("flipUVs", p.import.flipUVs);
    i.putString("conversionNote", p.import.conversionNote);
    w.set("import", i.object());
    w.set("rig", writeRig(p.rig, at.key("rig")));
    w.set("editor", writeEditor(p.editor, at.key("editor")));
    QJsonArray scenarios;
    const JsonPath scenariosAt = at.key("scenarios");
    for (std::size_t k = 0; k < p.scenarios.size(); ++k)
        scenarios.append(writeScenario(p.scenarios[k], scenariosAt.index(qsizetype(k))));
    w.set("scenarios", scenarios);
    if (!p.collisionGroups.empty()) { // optional: a project without names is written as before
        QJsonArray groups;
        const JsonPath groupsAt = at.key("collisionGroups");
        for (std::size_t k = 0; k < p.collisionGroups.size(); ++k) {
            ObjectWriter g(groupsAt.index(qsizetype(k)));
            g.set("bit", p.collisionGroups[k].bit);
            g.putString("name", p.collisionGroups[k].name);
            groups.append(g.object());
        }
        w.set("collisionGroups", groups);
    }
    if (!p.lods.empty()) { // optional: a project without levels is written as before
        QJsonArray lods;
        const JsonPath lodsAt = at.key("lods");
        for (std::size_t k = 0; k < p.lods.size(); ++k)
            lods.append(writeLod(p.lods[k], lodsAt.index(qsizetype(k))));
        w.set("lods", lods);
    }
    return w.object();
}

} // namespace marionette::project::detail
