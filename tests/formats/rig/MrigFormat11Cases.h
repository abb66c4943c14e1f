// Hand-built format 1.1 files for the .mrig suites and the corpus generator (no Qt here): a valid sample with
// SOLV, ANGF and PINF, one from a later minor with larger 1.1 records, and crafted bad files, one problem
// each, with the exact message the reader gives. mrig_make_corpus writes them to corpus/ (names contain
// "_v11_", so they never collide with the frozen format 1.0 files); tst_mrigformat11 reads them from memory
// and compares the messages exactly; tst_mrigcorpus replays the written files.
#pragma once

#include "MrigTestSupport.h"

#include <functional>
#include <string>
#include <vector>

namespace marionette::test {

struct CorpusCase {
    std::string file;     ///< name in corpus/: good_*, bad_* (bad_validate_* when only validate() refuses it)
    std::string expected; ///< "OK", or the whole message readMrig() gives
    Bytes bytes;
};

/// Every hand-built format 1.1 case, in a fixed order.
/// Corpus cases made from one sample rig: raw() changes its records, built() the builder that writes them.
class SampleCases {
public:
    explicit SampleCases(RawRig (*sample)()) : mSample(sample) {}

    std::vector<CorpusCase> out;

    void raw(const std::string& file, const std::string& expected, const std::function<void(RawRig&)>& change)
    {
        RawRig r = mSample();
        change(r);
        out.push_back({file, expected, builderFor(r).build()});
    }
    void built(const std::string& file, const std::string& expected, const std::function<void(MrigBuilder&)>& change)
    {
        MrigBuilder b = builderFor(mSample());
        change(b);
        out.push_back({file, expected, b.build()});
    }

private:
    RawRig (*mSample)();
};

/// The chunk with `tag` re-added at the same place with `recordSize` (larger: 0xA5 filler, smaller: cut).
template <typename R>
void resizeChunk(MrigBuilder& b, std::uint32_t tag, const std::vector<R>& records, std::uint32_t recordSize)
{
    for (RawChunk& c : b.chunks)
        if (c.tag == tag) {
            MrigBuilder one;
            one.add(tag, records, recordSize);
            c = one.chunks[0];
            return;
        }
}

std::vector<CorpusCase> format11Cases();

} // namespace marionette::test
