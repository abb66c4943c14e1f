// Tests of marionette::runtime::SparseLdl, the sparse LDLᵀ under the direct projection: solutions against
// a dense elimination on random positive definite systems with a rig's pattern (chains, trees, loops of
// rigid sticks sharing particles), the forward/backward halves a Schur complement combines, and the
// treatment of redundant constraints (a singular system).
#include "SparseLdl.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using marionette::runtime::SparseLdl;

namespace {

/// A random sparse symmetric pattern: a spanning tree over n unknowns plus `extra` random edges.
std::vector<SparseLdl::Entry> randomPattern(std::uint32_t n, std::uint32_t extra, std::mt19937& rng)
{
    std::vector<SparseLdl::Entry> entries;
    for (std::uint32_t i = 1; i < n; ++i)
        entries.push_back({std::uniform_int_distribution<std::uint32_t>(0, i - 1)(rng), i});
    for (std::uint32_t k = 0; k < extra; ++k) {
        const std::uint32_t a = std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
        const std::uint32_t b = std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
        if (a == b)
            continue;
        const bool seen = std::any_of(entries.begin(), entries.end(), [&](const SparseLdl::Entry& e) {
            return (e.i == a && e.j == b) || (e.i == b && e.j == a);
        });
        if (!seen)
            entries.push_back({a, b});
    }
    return entries;
}

/// Dense n×n matrix of the pattern with random off-diagonal values and a dominant diagonal (positive definite).
std::vector<double> randomMatrix(std::uint32_t n, const std::vector<SparseLdl::Entry>& entries, std::mt19937& rng,
                                 std::vector<double>& diag, std::vector<double>& off)
{
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    std::vector<double> a(std::size_t(n) * n, 0.0);
    off.assign(entries.size(), 0.0);
    for (std::size_t e = 0; e < entries.size(); ++e) {
        off[e] = value(rng);
        a[std::size_t(entries[e].i) * n + entries[e].j] = a[std::size_t(entries[e].j) * n + entries[e].i] = off[e];
    }
    diag.assign(n, 0.0);
    for (std::uint32_t i = 0; i < n; ++i) {
        double sum = 0.0;
        for (std::uint32_t j = 0; j < n; ++j)
            sum += std::fabs(a[std::size_t(i) * n + j]);
        diag[i] = a[std::size_t(i) * n + i] = sum + 0.5 + std::fabs(value(rng));
    }
    return a;
}

/// Largest |A x − b| over the rows.
double residual(const std::vector<double>& a, const std::vector<double>& x, const std::vector<double>& b)
{
    const std::size_t n = b.size();
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double r = -b[i];
        for (std::size_t j = 0; j < n; ++j)
            r += a[i * n + j] * x[j];
        worst = std::max(worst, std::fabs(r));
    }
    return worst;
}

} // namespace

class TestSparseLdl : public QObject {
    Q_OBJECT

private slots:
    void solvesRandomSystems_data()
    {
        QTest::addColumn<quint32>("n");
        QTest::addColumn<quint32>("extra");
        QTest::newRow("one unknown") << 1u << 0u;
        QTest::newRow("chain of sticks") << 12u << 0u;
        QTest::newRow("humanoid-sized") << 32u << 60u;
        QTest::newRow("dense-ish") << 20u << 120u;
        QTest::newRow("large body") << 300u << 400u;
    }

    void solvesRandomSystems()
    {
        QFETCH(quint32, n);
        QFETCH(quint32, extra);
        std::mt19937 rng(n * 7919u + extra);
        for (int trial = 0; trial < 5; ++trial) {
            const auto entries = randomPattern(n, extra, rng);
            SparseLdl ldl;
            QVERIFY(ldl.analyse(n, entries));
            QCOMPARE(ldl.size(), n);
            SparseLdl::Work work;
            work.reserve(ldl);
            std::vector<double> diag, off;
            // The same analysis serves new values every time (the solver refactorises every substep).
            for (int values = 0; values < 3; ++values) {
                const auto a = randomMatrix(n, entries, rng, diag, off);
                ldl.load(diag, off, work);
                ldl.factor(work);
                std::vector<double> b(n), x(n);
                for (double& v : b)
                    v = std::uniform_real_distribution<double>(-2.0, 2.0)(rng);
                x = b;
                ldl.solve(x, work);
                QVERIFY2(residual(a, x, b) < 1e-10, qPrintable(QString::number(residual(a, x, b))));

                // forward, D⁻¹, backward in the factor's numbering is the same solve.
                std::vector<double> u(n);
                for (std::uint32_t i = 0; i < n; ++i)
                    u[ldl.permuted(i)] = b[i];
                ldl.forward(u.data(), work);
                for (std::uint32_t k = 0; k < n; ++k)
                    u[k] /= SparseLdl::pivot(work, k);
                ldl.backward(u.data(), work);
                for (std::uint32_t k = 0; k < n; ++k)
                    QVERIFY(std::fabs(u[k] - x[ldl.original(k)]) < 1e-12 * (1.0 + std::fabs(x[ldl.original(k)])));
            }
        }
    }

    void schurProductsFromForwardHalves()
    {
        // bᵀA⁻¹c from two forward passes (what the projection's Schur complement uses), with sparse b and c,
        // against the full solve.
        const std::uint32_t n = 40;
        std::mt19937 rng(11);
        const auto entries = randomPattern(n, 50, rng);
        SparseLdl ldl;
        QVERIFY(ldl.analyse(n, entries));
        SparseLdl::Work work;
        work.reserve(ldl);
        std::vector<double> diag, off;
        const auto a = randomMatrix(n, entries, rng, diag, off);
        ldl.load(diag, off, work);
        ldl.factor(work);
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<double> b(n, 0.0), c(n, 0.0);
            for (int k = 0; k < 3; ++k) {
                b[std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng)] = 1.0 + k;
                c[std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng)] = -0.5 * k - 0.25;
            }
            std::vector<double> x = c;
            ldl.solve(x, work);
            double expected = 0.0;
            for (std::uint32_t i = 0; i < n; ++i)
                expected += b[i] * x[i];
            std::vector<double> ub(n, 0.0), uc(n, 0.0);
            for (std::uint32_t i = 0; i < n; ++i) {
                ub[ldl.permuted(i)] = b[i];
                uc[ldl.permuted(i)] = c[i];
            }
            // b's pass starts at its first nonzero column, as the projection does: the same result.
            std::uint32_t first = n;
            for (std::uint32_t k = 0; k < n; ++k)
                if (ub[k] != 0.0)
                    first = std::min(first, k);
            std::vector<double> whole = ub;
            ldl.forward(whole.data(), work);
            ldl.forward(ub.data(), work, first);
            QVERIFY(whole == ub);
            ldl.forward(uc.data(), work);
            double product = 0.0;
            for (std::uint32_t k = 0; k < n; ++k)
                product += ub[k] * uc[k] / SparseLdl::pivot(work, k);
            QVERIFY2(std::fabs(product - expected) < 1e-12 * (1.0 + std::fabs(expected)),
                     qPrintable(QStringLiteral("%1 vs %2").arg(product).arg(expected)));
        }
    }

    void refactorOfChangedRowsEqualsFullFactor()
    {
        // What the projection does after letting contacts go: the rows at a few unknowns change (their
        // diagonal and every off-diagonal entry they take part in); refactor() with those rows marked must
        // give the full factorisation of the new matrix to the bit (so every solve with it is the same too).
        const std::uint32_t n = 60;
        std::mt19937 rng(23);
        const auto entries = randomPattern(n, 70, rng);
        SparseLdl ldl;
        QVERIFY(ldl.analyse(n, entries));
        std::vector<double> diag, off;
        randomMatrix(n, entries, rng, diag, off);
        SparseLdl::Work partial, full;
        partial.reserve(ldl);
        full.reserve(ldl);
        ldl.load(diag, off, partial);
        ldl.factor(partial);
        std::uniform_real_distribution<double> scale(0.5, 1.5);
        for (int round = 0; round < 10; ++round) {
            std::vector<std::uint8_t> changed(n, 0), redo(n, 0);
            for (int k = 0; k < 1 + round % 3; ++k)
                changed[std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng)] = 1;
            for (std::uint32_t i = 0; i < n; ++i)
                if (changed[i]) {
                    diag[i] *= scale(rng) + 1.0; // stays dominant: only grows
                    redo[ldl.permuted(i)] = 1;
                }
            for (std::size_t e = 0; e < entries.size(); ++e)
                if (changed[entries[e].i] || changed[entries[e].j])
                    off[e] *= 0.5 * scale(rng);
            ldl.load(diag, off, partial);
            ldl.refactor(partial, redo.data());
            ldl.load(diag, off, full);
            ldl.factor(full);
            QVERIFY2(partial.lx == full.lx && partial.d == full.d, qPrintable(QStringLiteral("round %1").arg(round)));
        }
    }

    void redundantRowsAreDecoupled()
    {
        // Three sticks of a rigid triangle plus a fourth row identical to the first (a redundant constraint):
        // A = J Jᵀ is singular. The factorisation must not fail; the dependent unknown is solved as 0 and a
        // consistent right-hand side is still met.
        // J rows on a 2D triangle (unit masses): the gradients of the three edge lengths, and a duplicate.
        const double s3 = std::sqrt(3.0) / 2.0;
        const double p[3][2] = {{0.0, 0.0}, {1.0, 0.0}, {0.5, s3}};
        const int edges[4][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 1}};
        double J[4][6] = {};
        for (int r = 0; r < 4; ++r) {
            const int i = edges[r][0], j = edges[r][1];
            const double dx = p[j][0] - p[i][0], dy = p[j][1] - p[i][1];
            const double l = std::hypot(dx, dy);
            J[r][2 * i] = -dx / l;
            J[r][2 * i + 1] = -dy / l;
            J[r][2 * j] = dx / l;
            J[r][2 * j + 1] = dy / l;
        }
        std::vector<double> a(16, 0.0);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c)
                for (int k = 0; k < 6; ++k)
                    a[std::size_t(r) * 4 + c] += J[r][k] * J[c][k];
        const std::vector<SparseLdl::Entry> entries{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
        std::vector<double> diag(4), off(entries.size());
        for (int r = 0; r < 4; ++r)
            diag[r] = a[std::size_t(r) * 4 + r];
        for (std::size_t e = 0; e < entries.size(); ++e)
            off[e] = a[std::size_t(entries[e].i) * 4 + entries[e].j];
        SparseLdl ldl;
        QVERIFY(ldl.analyse(4, entries));
        SparseLdl::Work work;
        work.reserve(ldl);
        ldl.load(diag, off, work);
        ldl.factor(work);
        // A consistent right-hand side: rows 0 and 3 ask the same.
        const std::vector<double> b{0.1, -0.05, 0.02, 0.1};
        std::vector<double> x = b;
        ldl.solve(x, work);
        for (double v : x)
            QVERIFY(std::isfinite(v));
        QVERIFY2(residual(a, x, b) < 1e-9, qPrintable(QString::number(residual(a, x, b))));
        // Exactly one of the two duplicate rows carries the load; the other is decoupled (0).
        QVERIFY((x[0] == 0.0) != (x[3] == 0.0));
    }

    void emptySystemIsRejected()
    {
        SparseLdl ldl;
        QVERIFY(!ldl.analyse(0, {}));
        QCOMPARE(ldl.factorNonzeros(), std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestSparseLdl)
#include "tst_sparseldl.moc"
