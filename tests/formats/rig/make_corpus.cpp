// mrig_make_corpus DIR: writes the generated part of the .mrig corpus (valid seeds and crafted bad files of
// formats 1.1 to 1.3) and updates DIR/expected.txt, one line per file: "<file name><TAB><expected error
// substring, or OK>".
//
// The corpus has these parts (see corpus/README.md):
// - the format 1.0 files, frozen: written once by the 1.0 version of this program (commit 462368d), checked
//   byte for byte by tst_mrigcorpus, never rewritten (this program cannot reproduce them: the writer and the
//   hand-built files are newer now). Their lines in expected.txt are carried over as they are.
// - the files the 1.1 writer wrote (good_v11_humanoid, _cloth_6x4, _crate, _full_rig), frozen in the same way:
//   the writer writes 1.3 now. Their lines are carried over as they are. Likewise the files the 1.2 writer
//   wrote (good_v12_humanoid, _cloth_6x4, _crate, _full_rig).
// - the hand-built format 1.1 files, names containing "_v11_": written here from MrigFormat11Cases.cpp (the
//   same bytes on every run).
// - the hand-built format 1.2 files, names containing "_v12_": written here from MrigFormat12Cases.cpp.
// - the format 1.3 files, names containing "_v13_": written here, from the procedural rigs, the full rig (with
//   drive profiles) and the hand-built cases of MrigFormat13Cases.cpp.
// Regenerate on purpose and review the diff.
#include "MrigFormat11Cases.h"
#include "MrigFormat12Cases.h"
#include "MrigFormat13Cases.h"
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
    for (CorpusCase& c : format11Cases())
        cases.push_back(std::move(c));
    for (CorpusCase& c : format12Cases())
        cases.push_back(std::move(c));
    // Valid seeds as this build's writer writes them (SOLV, ANGF, PINF, BNDD, DRVP and DRPT, the legacy fields
    // filled in; the full rig has drive profiles, the others empty DRVP and DRPT).
    cases.push_back({"good_v13_humanoid.mrig", "OK", rig::writeMrig(runtime::makeHumanoid())});
    cases.push_back({"good_v13_cloth_6x4.mrig", "OK", rig::writeMrig(runtime::makeCloth(6, 4, 0.1f))});
    cases.push_back({"good_v13_crate.mrig", "OK", rig::writeMrig(runtime::makeCrate({0.3f, 0.2f, 0.4f}, 10.f))});
    cases.push_back({"good_v13_full_rig.mrig", "OK", rig::writeMrig(fullRig())});
    for (CorpusCase& c : format13Cases())
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
        const bool named = c.file.find("_v11_") != std::string::npos || c.file.find("_v12_") != std::string::npos ||
                           c.file.find("_v13_") != std::string::npos;
        if (!named || c.bytes.empty() || !generated.insert(c.file).second) {
            std::cerr << "bad case " << c.file
                      << " (names contain _v11_, _v12_ or _v13_, are unique, and the file is not empty)\n";
            return 1;
        }
    }

    // The lines of every file this program does not write (the frozen files) stay as they are, in order.
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
    list << "# file<TAB>expected error substring, or OK. The format 1.0 files and the 1.1 and 1.2 writers' files\n"
            "# are frozen; the other _v11_, _v12_ and _v13_ files are written by mrig_make_corpus\n"
            "# (tests/formats/rig/make_corpus.cpp), see README.md.\n";
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
    std::cout << cases.size() << " format 1.1 to 1.3 files written to " << dir << ", " << kept.size()
              << " frozen entries kept\n";
    return 0;
}
