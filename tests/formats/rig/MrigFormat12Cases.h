// Hand-built format 1.2 files for the .mrig suites and the corpus generator (no Qt here): a valid sample with
// BNDD, one from a later minor with larger BNDD records, one with no angle constraints and an empty BNDD, and
// crafted bad files, one problem each, with the exact message the reader gives.
// mrig_make_corpus writes them to corpus/ (names contain "_v12_"); tst_mrigformat12 reads them from memory
// and compares the messages exactly; tst_mrigcorpus replays the written files.
#pragma once

#include "MrigFormat11Cases.h"

#include <vector>

namespace marionette::test {

/// Every hand-built format 1.2 case, in a fixed order.
std::vector<CorpusCase> format12Cases();

} // namespace marionette::test
