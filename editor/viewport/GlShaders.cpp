#include "viewport/GlShaders.h"

namespace marionette::viewport::shaders {

const char* const kMeshVertex = R"(#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUv;
layout(location = 3) in vec4 aBones;   // bone indices as floats, -1 = unused
layout(location = 4) in vec4 aWeights;
uniform mat4 uView;
uniform mat4 uProjection;
uniform bool uSkinned;
uniform int uBoneCount;
uniform samplerBuffer uPalette;        // four RGBA32F texels (the columns) per bone
out vec3 vNormal;
out vec3 vPosition;
out vec2 vUv;
mat4 bone(int i)
{
    return mat4(texelFetch(uPalette, 4 * i), texelFetch(uPalette, 4 * i + 1), texelFetch(uPalette, 4 * i + 2),
                texelFetch(uPalette, 4 * i + 3));
}
void main()
{
    vec4 p = vec4(aPosition, 1.0);
    vec3 n = aNormal;
    if (uSkinned) {
        mat4 m = mat4(0.0);
        float total = 0.0;
        for (int k = 0; k < 4; ++k) {
            int b = int(aBones[k]);
            float w = aWeights[k];
            if (w > 0.0 && b >= 0 && b < uBoneCount) {
                m += w * bone(b);
                total += w;
            }
        }
        if (total > 1e-4) {
            m /= total;
            p = m * p;
            n = mat3(m) * n;
        }
    }
    vec4 viewPosition = uView * p;
    vPosition = viewPosition.xyz;
    vNormal = mat3(uView) * n;
    vUv = aUv;
    gl_Position = uProjection * viewPosition;
}
)";

const char* const kMeshFragment = R"(#version 330 core
in vec3 vNormal;
in vec3 vPosition;
in vec2 vUv;
uniform vec4 uBaseColour;
uniform bool uTextured;
uniform sampler2D uTexture;
uniform float uOpacity;
uniform bool uOrtho;
out vec4 fragColour;
void main()
{
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n;
    vec3 v = uOrtho ? vec3(0.0, 0.0, 1.0) : normalize(-vPosition);
    float lambert = max(dot(n, normalize(vec3(0.35, 0.55, 1.0))), 0.0);
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0);
    vec4 base = uBaseColour;
    if (uTextured)
        base *= texture(uTexture, vUv);
    fragColour = vec4(base.rgb * (0.28 + 0.72 * lambert) + vec3(0.22 * rim), base.a * uOpacity);
}
)";

const char* const kSphereVertex = R"(#version 330 core
layout(location = 0) in vec3 aPosition;      // unit sphere
layout(location = 1) in vec4 aCentreRadius;  // radius < 0: -pixels
layout(location = 2) in vec4 aColour;
uniform mat4 uView;
uniform mat4 uProjection;
uniform bool uOrtho;
uniform float uPixelScale;   // world per pixel: at depth 1 (perspective) or everywhere (ortho)
uniform float uMinPixels;
uniform float uGrowPixels;
out vec3 vNormal;
out vec4 vColour;
void main()
{
    vec4 c = uView * vec4(aCentreRadius.xyz, 1.0);
    float perPixel = uOrtho ? uPixelScale : uPixelScale * max(-c.z, 1e-4);
    float r = aCentreRadius.w < 0.0 ? -aCentreRadius.w * perPixel : max(aCentreRadius.w, uMinPixels * perPixel);
    r += uGrowPixels * perPixel;
    vNormal = aPosition;
    vColour = aColour;
    gl_Position = uProjection * vec4(c.xyz + aPosition * r, 1.0);
}
)";

const char* const kSphereFragment = R"(#version 330 core
in vec3 vNormal;
in vec4 vColour;
uniform bool uFlat;
uniform float uAlphaScale;
out vec4 fragColour;
void main()
{
    if (uFlat) {
        fragColour = vec4(vColour.rgb, vColour.a * uAlphaScale);
        return;
    }
    vec3 n = normalize(vNormal);
    float lambert = max(dot(n, normalize(vec3(0.35, 0.55, 1.0))), 0.0);
    float specular = pow(max(dot(n, normalize(vec3(0.2, 0.35, 1.0))), 0.0), 40.0);
    fragColour = vec4(vColour.rgb * (0.3 + 0.7 * lambert) + vec3(0.35 * specular), vColour.a * uAlphaScale);
}
)";

const char* const kLineVertex = R"(#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColour;
layout(location = 2) in vec2 aStyle;   // width in pixels, dashed
uniform mat4 uViewProjection;
out vec4 vColour;
out vec2 vStyle;
void main()
{
    vColour = aColour;
    vStyle = aStyle;
    gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
)";

const char* const kLineGeometry = R"(#version 330 core
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 vColour[];
in vec2 vStyle[];
uniform vec2 uViewportPixels;
uniform float uPixelRatio;
out vec4 gColour;
noperspective out float gAcross;
noperspective out float gAlong;
flat out float gDashed;
flat out float gHalfWidth;
void main()
{
    vec4 p0 = gl_in[0].gl_Position;
    vec4 p1 = gl_in[1].gl_Position;
    float nearW = 1e-5;
    if (p0.w < nearW && p1.w < nearW)
        return;
    if (p0.w < nearW)
        p0 = mix(p0, p1, (nearW - p0.w) / (p1.w - p0.w));
    if (p1.w < nearW)
        p1 = mix(p1, p0, (nearW - p1.w) / (p0.w - p1.w));
    vec2 halfView = 0.5 * uViewportPixels;
    vec2 s0 = p0.xy / p0.w * halfView;
    vec2 s1 = p1.xy / p1.w * halfView;
    vec2 d = s1 - s0;
    float len = length(d);
    vec2 dir = len > 1e-4 ? d / len : vec2(1.0, 0.0);
    vec2 n = vec2(-dir.y, dir.x);
    float halfWidth = 0.5 * vStyle[0].x * uPixelRatio;
    float extent = halfWidth + 1.0;
    vec2 along = dir * (0.5 * halfWidth);
    vec2 offsets[4] = vec2[4](-n * extent - along, n * extent - along, -n * extent + along, n * extent + along);
    vec4 ends[4] = vec4[4](p0, p0, p1, p1);
    float acrossValues[4] = float[4](-extent, extent, -extent, extent);
    float alongValues[4] = float[4](0.0, 0.0, len, len);
    for (int i = 0; i < 4; ++i) {
        vec4 p = ends[i];
        gl_Position = vec4(p.xy + offsets[i] / halfView * p.w, p.zw);
        gColour = i < 2 ? vColour[0] : vColour[1];
        gAcross = acrossValues[i];
        gAlong = alongValues[i];
        gDashed = vStyle[0].y;
        gHalfWidth = halfWidth;
        EmitVertex();
    }
    EndPrimitive();
}
)";

const char* const kLineFragment = R"(#version 330 core
in vec4 gColour;
noperspective in float gAcross;
noperspective in float gAlong;
flat in float gDashed;
flat in float gHalfWidth;
uniform float uAlphaScale;
uniform float uPixelRatio;
out vec4 fragColour;
void main()
{
    if (gDashed > 0.5 && mod(gAlong, 10.0 * uPixelRatio) > 6.0 * uPixelRatio)
        discard;
    float coverage = clamp(gHalfWidth + 0.5 - abs(gAcross), 0.0, 1.0);
    float a = gColour.a * coverage * uAlphaScale;
    if (a < 0.004)
        discard;
    fragColour = vec4(gColour.rgb, a);
}
)";

const char* const kFaceVertex = R"(#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColour;
uniform mat4 uViewProjection;
out vec4 vColour;
void main()
{
    vColour = aColour;
    gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
)";

const char* const kFaceFragment = R"(#version 330 core
in vec4 vColour;
uniform float uAlphaScale;
out vec4 fragColour;
void main()
{
    fragColour = vec4(vColour.rgb, vColour.a * uAlphaScale);
}
)";

const char* const kBroken = R"(#version 330 core
#error MARIONETTE_VIEWPORT_FAIL: shader failure forced for testing
void main() {}
)";

} // namespace marionette::viewport::shaders
