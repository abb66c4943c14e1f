// Hand-built format 1.3 files for the .mrig suites and the corpus generator (no Qt here): a valid sample with
// two drive profiles (DRVP, DRPT), one from a later minor with larger DRVP and DRPT records, and crafted bad
// files, one problem each, with the exact message the reader gives.
// mrig_make_corpus writes them to corpus/ (names contain "_v13_"); tst_mrigformat13 reads them from memory
// and compares the messages exactly; tst_mrigcorpus replays the written files.
#pragma once

#include "MrigFormat11Cases.h"

#include <vector>

namespace marionette::test {

/// Every hand-built format 1.3 case, in a fixed order.
std::vector<CorpusCase> format13Cases();

} // namespace marionette::test
