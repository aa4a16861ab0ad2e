# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/send-ready.sh (make send-ready).

usage: /usr/bin/python3 -m pytest -q tests/test_send_ready.py

The script runs with a temporary git identity (GIT_CONFIG_COUNT, which
overrides every config file, so the user's configuration is neither
read for the identity nor changed), a fixture run.json and an output
directory in pytest's tmp_path.  It needs the cached base tree
(scripts/base-tree.sh); without it the tests are skipped.  The scratch
tree of the script stays in build/send-ready/ as for 'make send-ready'.
"""

import email.utils
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / 'scripts' / 'send-ready.sh'
NAME, EMAIL = 'Test Sender', 'test.sender@example.org'
COMMAND, UPDATED = 'scripts/bench.sh fixture-run', '2026-12-01T08:00:00Z'
COLUMNS = ['case', 'metric', 'unit', 'baseline median (min-max)', 'patched median (min-max)',
           'ratio', 'runs', 'goal']


def sh(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def series(*args):
    r = sh(str(TOP / 'scripts' / 'series.sh'), *args)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


TOPICS = series('topics')


@pytest.fixture(scope='module')
def base():
    r = sh(str(TOP / 'scripts' / 'base-tree.sh'))
    repo = r.stdout.strip()
    if r.returncode != 0 or not repo or not os.path.isdir(repo):
        pytest.skip('no base tree (scripts/base-tree.sh: %s)' % r.stderr.strip())
    sha = sh('git', '-C', repo, 'rev-parse', 'refs/heads/base').stdout.strip()
    return repo, sha


def topic_header(topic, key, patches=TOP / 'patches'):
    text = (patches / 'topics' / (topic + '.txt')).read_text()
    return re.search(r'^%s:[ \t]*(.*)$' % key, text, re.M).group(1).strip()


def fixture_run(path, failed=()):
    """A run.json with rows for every benchmark the topic files name."""
    benches = sorted({b for t in TOPICS for b in topic_header(t, 'Benchmark').split()})
    doc = {'command': COMMAND, 'updated': UPDATED, 'env': {'accel': 'tcg', 'vcpus': 2},
           'benchmarks': []}
    for i, b in enumerate(benches):
        rows = [['case-%s' % b, 'metric_a_us', 'us', '%d (1-99999)' % (1000 + i),
                 '%d (1-99999)' % (500 + i), '0.50', '10', '<= 0.60 met'],
                ['case-%s' % b, 'metric_b_us', 'us', '7.5 (7.0-8.0)', '7.4 (7.0-8.0)',
                 '0.99', '10', '']]
        doc['benchmarks'].append({'name': b, 'title': 'fixture ' + b,
                                  'status': 'failed' if b in failed else 'ok',
                                  'cause': 'fixture failure' if b in failed else None,
                                  'columns': COLUMNS, 'rows': rows})
    path.write_text(json.dumps(doc, indent=1))
    return benches


def env(tmp, mail=EMAIL, **extra):
    e = {k: v for k, v in os.environ.items()
         if not k.startswith('GIT_CONFIG') and k not in ('LSX_PATCHES', 'LSX_RESULTS')}
    e.update(GIT_CONFIG_COUNT='2', GIT_CONFIG_KEY_0='user.name', GIT_CONFIG_VALUE_0=NAME,
             GIT_CONFIG_KEY_1='user.email', GIT_CONFIG_VALUE_1=mail,
             LSX_RESULTS=str(tmp / 'run.json'), LSX_SEND_OUT=str(tmp / 'send'),
             LSX_SEND_CHECKPATCH='0')
    e.update(extra)
    return e


def run(e):
    return sh(str(SCRIPT), env=e, cwd=str(TOP), timeout=600)


def headers(text):
    """{name: unfolded value} of a patch mail, and the header names in order."""
    head = text.split('\n\n', 1)[0]
    fields = []
    for line in head.split('\n')[1:]:
        if line[:1] in (' ', '\t'):
            fields[-1] += line
        else:
            fields.append(line)
    pairs = [f.split(':', 1) for f in fields]
    return {k: v.strip() for k, v in pairs}, [k for k, _ in pairs]


def addresses(value):
    return [a for _, a in email.utils.getaddresses([value])]


@pytest.fixture(scope='module')
def sent(base, tmp_path_factory):
    tmp = tmp_path_factory.mktemp('send')
    benches = fixture_run(tmp / 'run.json')
    r = run(env(tmp))
    assert r.returncode == 0, r.stdout + r.stderr
    return tmp / 'send', r, benches


def files_of(out, topic):
    d = out / topic
    return sorted(p.name for p in d.iterdir())


@pytest.mark.slow
def test_four_topics_numbered_alone(sent):
    out, r, _ = sent
    assert len(TOPICS) == 4
    assert sorted(p.name for p in out.iterdir()) == sorted(TOPICS)
    for topic in TOPICS:
        orig = series('topic', topic)
        names = files_of(out, topic)
        assert names[0] == '0000-cover-letter.patch'
        assert names[1:] == ['%04d-%s' % (k, re.sub(r'^[0-9]+-', '', p))
                             for k, p in enumerate(orig, 1)]


@pytest.mark.slow
def test_subjects(sent):
    out, _, _ = sent
    for topic in TOPICS:
        orig = series('topic', topic)
        m = len(orig)
        v = int(topic_header(topic, 'Version'))
        pre = 'PATCH' if v == 1 else 'PATCH v%d' % v
        h, _ = headers((out / topic / '0000-cover-letter.patch').read_text())
        assert h['Subject'] == '[%s 0/%d] %s' % (pre, m, topic_header(topic, 'Subject'))
        for k, (p, name) in enumerate(zip(orig, files_of(out, topic)[1:]), 1):
            title = re.sub(r'^\[PATCH[^]]*\] ', '',
                           headers((TOP / 'patches' / p).read_text())[0]['Subject'])
            # git format-patch pads the number to the width of the count
            want = ('[%s %0*d/%d] %s' % (pre, len(str(m)), k, m, title) if m > 1
                    else '[%s] %s' % (pre, title))
            assert headers((out / topic / name).read_text())[0]['Subject'] == want


@pytest.mark.slow
def test_to_cc_after_subject(sent):
    out, _, _ = sent
    for topic in TOPICS:
        union_to, union_cc = set(), set()
        for name in files_of(out, topic):
            h, order = headers((out / topic / name).read_text())
            i = order.index('Subject')
            assert order[i + 1:i + 3] == ['To', 'Cc'], (topic, name, order)
            to, cc = addresses(h['To']), addresses(h['Cc'])
            assert to and all(re.fullmatch(r'[^\s<>@]+@[^\s<>@]+', a) for a in to), to
            assert cc and all(re.fullmatch(r'[^\s<>@]+@[^\s<>@]+', a) for a in cc), cc
            if name == '0000-cover-letter.patch':
                cover_to, cover_cc = set(to), set(cc)
            else:
                union_to |= set(to)
                union_cc |= set(cc)
        assert cover_to == union_to and cover_cc == union_cc - union_to
    # The MAINTAINERS entries the topics add count: tools/testing/selftests/freezer/
    # is in FREEZER only once the freezer topic is applied.
    h, _ = headers(next((out / 'freezer').glob('0001-*.patch')).read_text())
    assert 'linux-pm@vger.kernel.org' in h['Cc']


@pytest.mark.slow
def test_identity_and_notes(sent):
    out, _, _ = sent
    sob = 'Signed-off-by: %s <%s>' % (NAME, EMAIL)
    for topic in TOPICS:
        v = int(topic_header(topic, 'Version'))
        src = [None] + series('topic', topic)
        for name, p in zip(files_of(out, topic), src):
            text = (out / topic / name).read_text()
            h, _ = headers(text)
            # The placeholder identity becomes the sender's; a real one stays.
            orig = headers((TOP / 'patches' / p).read_text())[0]['From'] if p else ''
            own = orig and 'series@invalid' not in orig
            assert h['From'] == (orig if own else '%s <%s>' % (NAME, EMAIL))
            assert 'series@invalid' not in text.split('\ndiff --git ')[0]
            assert 'Kernel Series Developers' not in text
            assert 'checkpatch-ignore' not in text
            if name != '0000-cover-letter.patch':
                msg = text.split('\n---\n', 1)[0]
                if own:
                    assert msg.count('Signed-off-by:') >= 1
                else:
                    assert msg.count(sob) == 1 and msg.count('Signed-off-by:') == 1
                below = text.split('\n---\n', 1)[1].split('\ndiff --git ')[0]
                if v == 1:
                    # the only notes were checkpatch-ignore ones: no Notes: block left
                    assert re.search(r'\n---\n [^\n]+\|', text), name
                    assert '\nNotes:' not in text.split('\ndiff --git ')[0]
                else:
                    # below '---', as git format-patch --notes puts it
                    assert 'Changes in v%d:' % v in below, name


@pytest.mark.slow
def test_cover_letter(sent, base):
    out, _, benches = sent
    for topic in TOPICS:
        text = (out / topic / '0000-cover-letter.patch').read_text()
        body = text.split('\n\n', 1)[1]
        assert body.rstrip('\n').endswith('base-commit: ' + base[1])
        authors = [headers((TOP / 'patches' / p).read_text())[0]['From']
                   for p in series('topic', topic)]
        names = [NAME if 'series@invalid' in a else a.split(' <')[0] for a in authors]
        for n in set(names):
            assert '\n%s (%d):\n' % (n, names.count(n)) in body, body
        assert re.search(r'^ \d+ files? changed', body, re.M)
        for b in topic_header(topic, 'Benchmark').split():
            i = benches.index(b)
            flat = ' '.join(body.split())
            assert "'%s'" % COMMAND in flat and UPDATED in flat
            assert re.search(r'^  case +metric +baseline +patched +ratio +goal$', body, re.M)
            assert re.search(r'^  case-%s +metric_a_us +%d +%d +0\.50 +<= 0\.60 met$'
                             % (re.escape(b), 1000 + i, 500 + i), body, re.M), body
            assert re.search(r'^  case-%s +metric_b_us +7\.5 +7\.4 +0\.99$' % re.escape(b),
                             body, re.M)
            assert all(len(l) <= 80 for l in body.split('\n') if l.startswith('  case'))


@pytest.mark.slow
def test_summary_lines(sent):
    out, r, _ = sent
    for topic in TOPICS:
        m = len(series('topic', topic))
        v = int(topic_header(topic, 'Version'))
        assert re.search(r'^send-ready: %s: %d patch\(es\), v%d, To: [1-9]\d*, Cc: [1-9]\d* -> '
                         r'%s/$' % (re.escape(topic), m, v, re.escape(os.path.realpath(out / topic))),
                         r.stdout, re.M), r.stdout


def sparse_am(repo, sha, d, *series_):
    """git am of each list of patches onto the base, in a fresh sparse clone
    holding only the files they touch; the tree ids."""
    shutil.rmtree(d, ignore_errors=True)
    paths = sorted({'/' + l.split()[3][2:] for ps in series_ for p in ps
                    for l in p.read_text().split('\n') if l.startswith('diff --git ')})
    git = ['git', '-C', str(d), '-c', 'user.name=t', '-c', 'user.email=t@example.org']
    assert sh('git', 'clone', '-q', '--shared', '--no-checkout', repo, str(d)).returncode == 0
    assert sh(*git, 'sparse-checkout', 'set', '--no-cone', *paths).returncode == 0
    trees = []
    for patches in series_:
        assert sh(*git, 'checkout', '-q', '-f', '--detach', sha).returncode == 0
        r = sh(*git, 'am', '-q', *map(str, patches))
        assert r.returncode == 0, r.stdout + r.stderr
        assert sh(*git, 'rev-list', '--count', sha + '..HEAD').stdout.strip() == str(len(patches))
        trees.append(sh(*git, 'rev-parse', 'HEAD^{tree}').stdout.strip())
    return trees


@pytest.mark.slow
def test_git_am_each_topic_alone(sent, base, tmp_path):
    """Each topic's sent patches apply alone to the base and give the same
    tree as the topic's patches in patches/."""
    out, _, _ = sent
    for topic in TOPICS:
        new = sorted((out / topic).glob('[0-9][0-9][0-9][0-9]-*.patch'))[1:]
        old = [TOP / 'patches' / p for p in series('topic', topic)]
        a, b = sparse_am(*base, tmp_path / topic, new, old)
        assert a == b, topic


@pytest.mark.slow
def test_checkpatch_no_worse(sent, base):
    out, _, _ = sent
    new = next((out / 'cgroup-freezer').glob('0002-*.patch'))
    old = TOP / 'patches' / series('topic', 'cgroup-freezer')[1]

    def findings(p):
        r = sh('perl', 'scripts/checkpatch.pl', '--strict', '--no-summary', '--terse',
               '--show-types', str(p), cwd=base[0],
               env=dict(os.environ, PATH='/usr/bin:' + os.environ['PATH']))
        return sorted(re.sub(r'^[^:]*:\d+: ', '', l) for l in r.stdout.splitlines())

    assert findings(new) == findings(old)


def one_error(r):
    # base-tree.sh warns about a linux-source-6.12 other than the expected one
    lines = [l for l in r.stderr.strip().split('\n') if not l.startswith('warning: ')]
    assert r.returncode != 0
    assert len(lines) == 1 and lines[0].startswith('error: '), r.stderr
    return lines[0]


def test_refuses_invalid_identity(base, tmp_path):
    fixture_run(tmp_path / 'run.json')
    err = one_error(run(env(tmp_path, mail='someone@invalid')))
    assert '@invalid' in err
    assert not (tmp_path / 'send').exists()


def test_refuses_missing_results(base, tmp_path):
    err = one_error(run(env(tmp_path)))
    assert 'run.json' in err and 'make bench' in err
    assert not (tmp_path / 'send').exists()


def test_refuses_failed_benchmark(base, tmp_path):
    fixture_run(tmp_path / 'run.json', failed=('freezer',))
    err = one_error(run(env(tmp_path)))
    assert "make bench BENCH=freezer'" in err
    assert not (tmp_path / 'send').exists()


def test_refuses_v2_without_changes(base, tmp_path):
    # A topic still at Version: 1, raised to 2 without the paragraphs.
    v1 = [t for t in TOPICS
          if re.search(r'^Version: 1$', (TOP / 'patches' / 'topics' / (t + '.txt')).read_text(), re.M)]
    if not v1:
        pytest.skip('every topic is past version 1')
    topic = v1[0]
    fixture_run(tmp_path / 'run.json')
    patches = tmp_path / 'patches'
    shutil.copytree(TOP / 'patches', patches)
    t = patches / 'topics' / (topic + '.txt')
    t.write_text(re.sub(r'^Version: 1$', 'Version: 2', t.read_text(), flags=re.M))
    first, second = series('topic', topic)[:2]
    e = env(tmp_path, LSX_PATCHES=str(patches))
    err = one_error(run(e))
    assert first in err and 'Changes in v2:' in err
    assert not (tmp_path / 'send').exists()
    # With the paragraph in the first patch the second one is named.
    p = patches / first
    p.write_text(p.read_text().replace('\n---\n', '\n---\nChanges in v2:\n'
                                       '- reworded\n\n', 1))
    err = one_error(run(e))
    assert second in err and first not in err


# ---------------------------------------------------------------- the helper's text work

def helper():
    import importlib.util
    spec = importlib.util.spec_from_file_location('send_ready', TOP / 'scripts' / 'send-ready.py')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_subject_folded_as_git_does():
    sr = helper()
    for p in series('all'):
        fields, _ = sr.split_mail((TOP / 'patches' / p).read_text(), p)
        i, subject = sr.field(fields, 'Subject')
        pre, title = re.match(r'^(\[PATCH[^]]*\]) (.*)$', subject).groups()
        assert sr.fold('Subject: %s ' % pre, title) == fields[i]
    assert [sr.prefix(*a) for a in ((1, 1, 1), (2, 1, 1), (1, 2, 3), (2, 2, 3), (1, 3, 12))] == \
        ['[PATCH]', '[PATCH v2]', '[PATCH 2/3]', '[PATCH v2 2/3]', '[PATCH 03/12]']


def test_notes_keep_all_but_checkpatch_ignore():
    sr = helper()
    stat = ' a/b.c | 1 +\n 1 file changed, 1 insertion(+)\n\n'
    only = '\nNotes:\n    checkpatch-ignore: FILE_PATH_CHANGES: why\n\n' + stat
    assert sr.strip_notes(only) == stat
    both = ('\nNotes:\n    checkpatch-ignore: FILE_PATH_CHANGES: why\n    Changes in v2:\n'
            '    - reworded\n\n' + stat)
    assert sr.strip_notes(both) == '\nNotes:\n    Changes in v2:\n    - reworded\n\n' + stat


def test_rewrite_non_ascii_sender_and_no_duplicate_sign_off():
    sr = helper()
    p = TOP / 'patches' / series('all')[0]
    text = p.read_text()
    new = sr.rewrite(str(p), text, 1, 1, 3, 'Zoë Tester', 'zoe@example.org')
    h, order = headers(new)
    assert h['Subject'].startswith('[PATCH v3] ')
    assert email.utils.getaddresses([h['From']])[0][1] == 'zoe@example.org'
    assert h['From'].isascii() and h['Content-Type'] == 'text/plain; charset=UTF-8'
    assert 'Signed-off-by: Zoë Tester <zoe@example.org>\n' in new
    assert new.split('\ndiff --git ', 1)[1] == text.split('\ndiff --git ', 1)[1]
    both = text.replace('Signed-off-by: Kernel Series Developers <series@invalid>\n',
                        'Signed-off-by: Kernel Series Developers <series@invalid>\n'
                        'Signed-off-by: Test Sender <test.sender@example.org>\n', 1)
    new = sr.rewrite(str(p), both, 1, 2, 1, NAME, EMAIL)
    msg = new.split('\n---\n', 1)[0]
    assert msg.count('Signed-off-by:') == 1 and msg.endswith('\n\nSigned-off-by: %s <%s>'
                                                             % (NAME, EMAIL))


def test_table_puts_long_goals_on_their_own_lines():
    sr = helper()
    rows = [['slow-async-last-async', 'critical_measured_suspend_us', 'us', '195192 (1-2)',
             '187080 (1-2)', '0.96', '6', ''],
            ['slow-async-last-async', 'resume_us', 'us', '353644 (1-2)', '200949 (1-2)',
             '0.57', '6', '<= 0.65 met; 1.07x critical_measured_resume_us (<= 1.10 met)']]
    t = sr.table(rows, COLUMNS)
    assert all(len(l) <= 80 for l in t.split('\n')), t
    assert re.search(r'^ +goal: <= 0\.65 met; 1\.07x critical_measured_resume_us', t, re.M), t
    short = sr.table([['deep', 'resume_us'] + r[2:7] + ['<= 0.65 met'] for r in rows], COLUMNS)
    assert short.split('\n')[0].endswith('  goal') and short.endswith('0.57  <= 0.65 met'), short
