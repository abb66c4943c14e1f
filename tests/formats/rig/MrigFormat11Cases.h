// Hand-built format 1.1 files for the .mrig suites and the corpus generator (no Qt here): a valid sample with
// SOLV, ANGF and PINF, one from a later minor with larger 1.1 records, and crafted bad files, one problem
// each, with the exact message the reader gives. mrig_make_corpus writes them to corpus/ (names contain
// "_v11_", so they never collide with the frozen format 1.0 files); tst_mrigformat11 reads them from memory
// and compares the messages exactly; tst_mrigcorpus replays the written files.
#pragma once

#include "MrigTestSupport.h"

#include <string>
#include <vector>

namespace marionette::test {

struct CorpusCase {
    std::string file;     ///< name in corpus/: good_*, bad_* (bad_validate_* when only validate() refuses it)
    std::string expected; ///< "OK", or the whole message readMrig() gives
    Bytes bytes;
};

/// Every hand-built format 1.1 case, in a fixed order.
std::vector<CorpusCase> format11Cases();

} // namespace marionette::test
