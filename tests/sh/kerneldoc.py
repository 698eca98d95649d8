#!/usr/bin/env python3
"""List public declarations whose kernel-doc is missing or incomplete.

A DMAMAP_API function (and, with --inline, a static inline one) must be
preceded directly by a multi-line /** block whose first text line is
"name() - summary", with an "@param:" line per parameter and, unless it
returns void, a "Return:" line.
"""
import re, sys, glob

def params_of(decl):
    start = decl.index('(')
    depth, cur, out = 0, '', []
    for ch in decl[start + 1:]:
        if ch == '(':
            depth += 1
        elif ch == ')':
            if depth == 0:
                out.append(cur)
                break
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur); cur = ''
        else:
            cur += ch
    names = []
    for p in out:
        p = p.strip()
        if not p or p == 'void' or p == '...':
            continue
        m = re.search(r'\(\s*\*\s*(\w+)\s*\)', p)  # function pointer
        names.append(m.group(1) if m else re.findall(r'\w+', p)[-1])
    return names

def check(path, inline):
    lines = open(path).read().split('\n')
    problems = []
    i = 0
    while i < len(lines):
        line = lines[i]
        is_api = line.startswith('DMAMAP_API')
        is_inline = inline and line.startswith('static inline')
        if not (is_api or is_inline):
            i += 1
            continue
        j, decl = i, ''
        while True:
            decl += lines[j] + '\n'
            if ';' in lines[j] or '{' in lines[j]:
                break
            j += 1
        if '(' not in decl.split(';')[0]:
            i = j + 1
            continue  # a variable
        head = decl[:decl.index('(')]
        name = re.findall(r'\w+', head)[-1]
        ret = head.replace('DMAMAP_API', '').replace('static inline', '')
        ret = ret[:ret.rindex(name)].strip()
        is_void = ret == 'void'
        where = f'{path}:{i + 1}: {name}()'
        # The comment directly above.
        k = i - 1
        if k < 0 or not lines[k].rstrip().endswith('*/'):
            problems.append(f'{where}: no comment directly above')
            i = j + 1
            continue
        end = k
        while k >= 0 and '/*' not in lines[k]:
            k -= 1
        block = lines[k:end + 1]
        text = '\n'.join(block)
        if k == end:
            problems.append(f'{where}: one-line comment')
        elif block[0].strip() != '/**':
            problems.append(f'{where}: not a /** kernel-doc block')
        else:
            first = block[1].strip().lstrip('*').strip()
            if not first.startswith(f'{name}() - '):
                problems.append(f'{where}: first line is not "{name}() - summary"')
            for p in params_of(decl):
                if not re.search(rf'^\s*\*\s*@{re.escape(p)}:', text, re.M):
                    problems.append(f'{where}: no @{p}: line')
            if not is_void and not re.search(r'^\s*\*\s*Return:', text, re.M):
                problems.append(f'{where}: no Return: section')
        i = j + 1
    return problems

inline = '--inline' in sys.argv
files = [a for a in sys.argv[1:] if not a.startswith('--')] or \
	sorted(glob.glob('include/dmamap/*.h') + glob.glob('include/dmamap/hw/*.h'))
all_problems = [p for f in files for p in check(f, inline)]
if all_problems:
    print('\n'.join('kerneldoc: ' + p for p in all_problems), file=sys.stderr)
    sys.exit(1)
print(f'kerneldoc: every public function of {len(files)} headers is documented')
