"""Debug helper: run q3's auto script once with --debug-file and grep the log. python3 dbg.py VERSION USAGE [ENV=VAL..]"""
import sys, subprocess
ver, usage = sys.argv[1], sys.argv[2]
env = dict(a.split("=", 1) for a in sys.argv[3:])
sys.argv = ['x', ver, 'auto', usage]
import q3_compact as q
from harness import Sandbox, Mock, headless
sb = Sandbox('q3-debug', ver)
sb.hook_settings()
mock = Mock(q.script)
r = headless(sb, mock, q.MAIN, env=env, args=['--debug-file', sb.root + '/debug.log'])
print(r['rc'], [q.classify(x) for x in mock.requests])
print(subprocess.run('grep -i "compact\\|context window\\|threshold" %s/debug.log | grep -v "hooks module" | head -40' % sb.root,
                     shell=True, capture_output=True, text=True).stdout)
