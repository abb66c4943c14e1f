// mrig_make_corpus DIR: writes the format 1.1 part of the .mrig corpus (valid seeds and crafted bad files) and
// updates DIR/expected.txt, one line per file: "<file name><TAB><expected error substring, or OK>".
//
// The corpus has two parts (see corpus/README.md):
// - the format 1.0 files, frozen: written once by the 1.0 version of this program (commit 462368d), checked
//   byte for byte by tst_mrigcorpus, never rewritten (this program cannot reproduce them: the writer and the
//   hand-built files are 1.1 now). Their lines in expected.txt are carried over as they are.
// - the format 1.1 files, every name containing "_v11_": written here, from the procedural rigs and the
//   hand-built cases of MrigFormat11Cases.cpp. Regenerate them on purpose and review the diff.
#include "MrigFormat11Cases.h"
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

using namespace marionette;
using namespace marionette::test;

namespace {

std::vector<CorpusCase> makeCases()
{
    std::vector<CorpusCase> cases;
    // Valid seeds as this build's writer writes them (SOLV, ANGF and PINF, the legacy fields filled in).
    cases.push_back({"good_v11_humanoid.mrig", "OK", rig::writeMrig(runtime::makeHumanoid())});
    cases.push_back({"good_v11_cloth_6x4.mrig", "OK", rig::writeMrig(runtime::makeCloth(6, 4, 0.1f))});
    cases.push_back({"good_v11_crate.mrig", "OK", rig::writeMrig(runtime::makeCrate({0.3f, 0.2f, 0.4f}, 10.f))});
    cases.push_back({"good_v11_full_rig.mrig", "OK", rig::writeMrig(fullRig())});
    for (CorpusCase& c : format11Cases())
        cases.push_back(std::move(c));
    return cases;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: mrig_make_corpus DIR\n";
        return 1;
    }
    const std::string dir = argv[1];
    const std::vector<CorpusCase> cases = makeCases();
    std::set<std::string> generated;
    for (const CorpusCase& c : cases) {
        if (c.file.find("_v11_") == std::string::npos || c.bytes.empty() || !generated.insert(c.file).second) {
            std::cerr << "bad case " << c.file << " (names contain _v11_, are unique, and the file is not empty)\n";
            return 1;
        }
    }

    // The lines of every file this program does not write (the frozen 1.0 files) stay as they are, in order.
    std::vector<std::string> kept;
    {
        std::ifstream old(dir + "/expected.txt", std::ios::binary);
        if (!old) {
            std::cerr << "cannot read " << dir << "/expected.txt (run on the committed corpus folder)\n";
            return 1;
        }
        for (std::string line; std::getline(old, line);) {
            if (line.empty() || line[0] == '#')
                continue;
            if (!generated.count(line.substr(0, line.find('\t'))))
                kept.push_back(line);
        }
    }

    std::ostringstream list;
    list << "# file<TAB>expected error substring, or OK. The format 1.0 files are frozen; the _v11_ files are\n"
            "# written by mrig_make_corpus (tests/formats/rig/make_corpus.cpp), see README.md.\n";
    for (const std::string& line : kept)
        list << line << '\n';
    for (const CorpusCase& c : cases) {
        std::ofstream f(dir + "/" + c.file, std::ios::binary);
        f.write(reinterpret_cast<const char*>(c.bytes.data()), std::streamsize(c.bytes.size()));
        if (!f) {
            std::cerr << "cannot write " << dir << '/' << c.file << '\n';
            return 1;
        }
        list << c.file << '\t' << c.expected << '\n';
    }
    std::ofstream out(dir + "/expected.txt", std::ios::binary);
    out << list.str();
    if (!out) {
        std::cerr << "cannot write " << dir << "/expected.txt\n";
        return 1;
    }
    std::cout << cases.size() << " format 1.1 files written to " << dir << ", " << kept.size()
              << " frozen entries kept\n";
    return 0;
}
