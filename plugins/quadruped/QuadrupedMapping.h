// Which bones of a skeleton are the parts of a four-legged animal (the quadruped template's mapping).
//
// The hierarchy and the bind pose decide the structure; bone names break the ties:
//  - feet: groups of leaf bones in the lowest 30 % of the skeleton's height (toes of one paw, whose common
//    ancestor is low too, are one foot; bones named "tail" are never feet). Exactly four are needed;
//  - a leg: the bones from the foot up to (not including) the first ancestor that also carries another foot;
//  - pelvis and chest: the legs paired side by side (the pairing with the shortest distances between their
//    top joints); each pair's common ancestor is its attachment bone; the spine runs between them;
//  - front or hind: bone names first (front, fore, arm, hand, shoulder, humerus... against hind, rear, thigh,
//    upleg, femur, foot...; a bone named head or tail nearer one pair), else the pair whose attachment has
//    the highest other branch (the neck) is the front, else the pair nearer the root is the hind;
//  - left or right: the side a name says (L, R, Left, Right, .L, _R ...), else the side of the body the
//    leg's top joint is on, with forward = from the pelvis to the chest and +Y up;
//  - neck and head: the chest's other branch (toward a bone named head when there is one); the head is the
//    bone named head, else the last bone of that chain that has a child; tail: the pelvis's other branch.
#pragma once

#include "marionette/Math.h"
#include "marionette/rig/RigDescription.h"

#include <cstdint>
#include <string>
#include <vector>

namespace marionette::plugins {

enum LegIndex : int { kFrontLeft = 0, kFrontRight = 1, kHindLeft = 2, kHindRight = 3 };
const char* legName(int leg); ///< "front_l", "front_r", "hind_l", "hind_r"

struct QuadrupedMapping {
    std::int32_t pelvis = rig::kNone;       ///< where the hind legs (and the tail) attach
    std::int32_t chest = rig::kNone;        ///< where the front legs (and the neck) attach
    std::vector<std::int32_t> spine;        ///< bones strictly between pelvis and chest, pelvis side first
    std::vector<std::int32_t> legs[4];      ///< per LegIndex: top bone first, down to the foot's leaf
    std::vector<std::int32_t> neck;         ///< from the chest toward the head, the head excluded
    std::int32_t head = rig::kNone;         ///< kNone when the chest has no other branch
    std::vector<std::int32_t> tail;         ///< from the pelvis outward; may be empty
    Vec3 up{0, 1, 0}, forward{0, 0, 1}, left{1, 0, 0}; ///< the animal's directions at bind
    std::string problem;                    ///< empty when the mapping is usable, else one line
    std::vector<std::string> notes;         ///< what was guessed (sides or front from geometry...)
};

/// Maps `skeleton` (parents first, bindWorld finite, metres, +Y up). Never fails; `problem` says why a
/// skeleton is not a quadruped, e.g. "2 feet reach the ground (four are needed): PawL_end, PawR_end".
QuadrupedMapping mapQuadruped(const std::vector<rig::Bone>& skeleton);

} // namespace marionette::plugins
