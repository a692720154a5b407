# Writes grammar/xsd/oozie-workflow-{0.1,0.2,0.2.5,0.3,0.4,0.4.5,0.5}.xsd from
# one description, the differences between versions as Oozie publishes them
# (client/src/main/resources/, apache/oozie 8bdac8be) made explicit.
# Usage: python3 tools/gen_workflow_xsd.py grammar/xsd
import textwrap

def el(name, ty, mn=1, mx=1):
    mx = 'unbounded' if mx is None else mx
    return f'<xs:element name="{name}" type="{ty}" minOccurs="{mn}" maxOccurs="{mx}"/>'

def schema(v):
    ns = f'uri:oozie:workflow:{v}'
    # (0, 2, 5) sorts between (0, 2) and (0, 3), as the versions came.
    n = tuple(int(x) for x in v.split('.'))
    jt_min = 0 if n >= (0, 4) else 1
    jobxml_max = None if n >= (0, 4) else 1
    sla = 'uri:oozie:sla:0.1 uri:oozie:sla:0.2' if n >= (0, 5) else 'uri:oozie:sla:0.1'
    S = 'xs:string'
    w = lambda t: f'workflow:{t}'
    out = []
    app_seq = []
    if n >= (0, 4):
        app_seq += [el('parameters', w('PARAMETERS'), 0), el('global', w('GLOBAL'), 0)]
    if n >= (0, 2, 5):
        app_seq += [el('credentials', w('CREDENTIALS'), 0)]
    app_seq += [el('start', w('START')),
        '<xs:choice minOccurs="0" maxOccurs="unbounded">',
        *['    ' + el(x, w(x.upper())) for x in ['decision', 'fork', 'join', 'kill', 'action']],
        '</xs:choice>',
        el('end', w('END'))]
    if n >= (0, 2):
        app_seq += [f'<xs:any namespace="{sla}" minOccurs="0" maxOccurs="1"/>']
    out.append(f'<xs:element name="workflow-app" type="workflow:WORKFLOW-APP"/>')
    # Global too, as published: a strict wildcard of another schema (an
    # action's ##other) takes them in this namespace.
    out.append('\n'.join(f'<xs:element name="{e}" type="workflow:{e.upper()}"/>' for e in
        ['switch', 'kill', 'map-reduce', 'pig'] + (['ssh'] if n < (0, 2) else []) + ['sub-workflow', 'fs', 'java']))
    out.append('<xs:simpleType name="IDENTIFIER"><xs:restriction base="xs:string"><xs:pattern value="([a-zA-Z_]([\\-_a-zA-Z0-9])*){1,39}"/></xs:restriction></xs:simpleType>')
    def ctype(name, seq=None, attrs=(), kind='sequence'):
        body = []
        if seq is not None:
            body.append(f'<xs:{kind}>')
            body += ['    ' + s for s in seq]
            body.append(f'</xs:{kind}>')
        body += [f'<xs:attribute name="{a}" type="{t}"' + (' use="required"' if r else '') + '/>' for a, t, r in attrs]
        return '\n'.join([f'<xs:complexType name="{name}">'] + ['    ' + b for b in body] + ['</xs:complexType>'])
    out.append(ctype('WORKFLOW-APP', app_seq, [('name', S, True)]))
    if n >= (0, 4):
        out.append(ctype('PARAMETERS', ['<xs:element name="property" minOccurs="1" maxOccurs="unbounded"><xs:complexType><xs:sequence>',
            '    ' + el('name', S), '    ' + el('value', S, 0), '    ' + el('description', S, 0), '</xs:sequence></xs:complexType></xs:element>']))
        out.append(ctype('GLOBAL', [el('job-tracker', S, 0), el('name-node', S, 0), el('job-xml', S, 0, None), el('configuration', w('CONFIGURATION'), 0)]))
    I = w('IDENTIFIER')
    out.append(ctype('START', None, [('to', I, True)]))
    out.append(ctype('END', None, [('name', I, True)]))
    out.append(ctype('DECISION', [el('switch', w('SWITCH'))], [('name', I, True)]))
    out.append(ctype('SWITCH', [el('case', w('CASE'), 1, None), el('default', w('DEFAULT'))]))
    out.append('<xs:complexType name="CASE"><xs:simpleContent><xs:extension base="xs:string"><xs:attribute name="to" type="workflow:IDENTIFIER" use="required"/></xs:extension></xs:simpleContent></xs:complexType>')
    out.append(ctype('DEFAULT', None, [('to', I, True)]))
    out.append(ctype('FORK_TRANSITION', None, [('start', I, True)]))
    out.append(ctype('FORK', [el('path', w('FORK_TRANSITION'), 2, None)], [('name', I, True)]))
    out.append(ctype('JOIN', None, [('name', I, True), ('to', I, True)]))
    out.append(ctype('KILL', [el('message', S)], [('name', I, True)]))
    out.append(ctype('ACTION_TRANSITION', None, [('to', I, True)]))
    core = ['map-reduce', 'pig'] + (['ssh'] if n < (0, 2) else []) + ['sub-workflow', 'fs'] + (['http', 'email'] if n < (0, 2) else []) + ['java']
    choice = ['<xs:choice minOccurs="1" maxOccurs="1">'] + ['    ' + el(c, w(c.upper())) for c in core] + ['    <xs:any namespace="##other" minOccurs="1" maxOccurs="1"/>', '</xs:choice>']
    action_seq = choice + [el('ok', w('ACTION_TRANSITION')), el('error', w('ACTION_TRANSITION'))]
    if n >= (0, 2):
        action_seq.append(f'<xs:any namespace="{sla}" minOccurs="0" maxOccurs="1"/>')
    action_attrs = [('name', I, True)]
    if n >= (0, 2, 5):
        action_attrs += [('cred', S, False)]
    if n >= (0, 3):
        action_attrs += [('retry-max', S, False), ('retry-interval', S, False)]
    if n >= (0, 5):
        # Added to 0.5 in Oozie 4.3.0 (OOZIE-2440; oozie-workflow-0.5.xsd:163 at release-5.2.1).
        action_attrs += [('retry-policy', S, False)]
    out.append(ctype('ACTION', action_seq, action_attrs))
    head = [el('job-tracker', S, jt_min), el('name-node', S, jt_min), el('prepare', w('PREPARE'), 0)]
    jobxml = el('job-xml', S, 0, jobxml_max)
    mr = head + ['<xs:choice minOccurs="0" maxOccurs="1">', '    ' + el('streaming', w('STREAMING'), 0), '    ' + el('pipes', w('PIPES'), 0), '</xs:choice>', jobxml, el('configuration', w('CONFIGURATION'), 0)]
    if n >= (0, 5):
        mr.append(el('config-class', S, 0))
    mr += [el('file', S, 0, None), el('archive', S, 0, None)]
    out.append(ctype('MAP-REDUCE', mr))
    pig = head + [jobxml, el('configuration', w('CONFIGURATION'), 0), el('script', S), el('param', S, 0, None)]
    if n >= (0, 2):
        pig.append(el('argument', S, 0, None))
    pig += [el('file', S, 0, None), el('archive', S, 0, None)]
    out.append(ctype('PIG', pig))
    if n < (0, 2):
        out.append(ctype('SSH', [el('host', S), el('command', S), el('args', S, 0, None), el('capture-output', w('FLAG'), 0)]))
        out.append(ctype('HTTP', [el('http-url', S), el('post', w('HTTP-POST'), 0), '<xs:choice minOccurs="1" maxOccurs="1">', '    ' + el('wait', w('FLAG')), '    ' + el('continue', w('FLAG')), '</xs:choice>', '<xs:element name="capture-output" type="workflow:FLAG"/>']))
        out.append(ctype('EMAIL', [el('to', S), el('subject', S), el('message', S, 0)]))
        out.append('<xs:complexType name="HTTP-POST"><xs:simpleContent><xs:extension base="xs:string"><xs:attribute name="content-type" type="xs:string" use="required"/></xs:extension></xs:simpleContent></xs:complexType>')
    out.append(ctype('SUB-WORKFLOW', [el('app-path', S), el('propagate-configuration', w('FLAG'), 0), el('configuration', w('CONFIGURATION'), 0)]))
    ops = ['delete', 'mkdir', 'move', 'chmod'] + (['touchz'] if n >= (0, 4) else []) + (['chgrp'] if n >= (0, 4, 5) else []) + (['setrep'] if n >= (0, 5) else [])
    fs_ops = ['<xs:choice minOccurs="0" maxOccurs="unbounded">'] + [f'    <xs:element name="{o}" type="workflow:{o.upper()}"/>' for o in ops] + ['</xs:choice>']
    if n >= (0, 4):
        out.append(ctype('FS', [el('name-node', S, 0), el('job-xml', S, 0, None), el('configuration', w('CONFIGURATION'), 0)] + fs_ops))
    else:
        out.append(ctype('FS', fs_ops[1:-1], kind='choice').replace('<xs:choice>', '<xs:choice minOccurs="0" maxOccurs="unbounded">', 1))
    java = head + [jobxml, el('configuration', w('CONFIGURATION'), 0), el('main-class', S)]
    if n >= (0, 4):
        java += ['<xs:choice minOccurs="0" maxOccurs="1">', '    ' + el('java-opts', S), '    ' + el('java-opt', S, 1, None), '</xs:choice>']
    else:
        java += [el('java-opts', S, 0)]
    java += [el('arg', S, 0, None), el('file', S, 0, None), el('archive', S, 0, None), el('capture-output', w('FLAG'), 0)]
    out.append(ctype('JAVA', java))
    out.append('<xs:complexType name="FLAG"/>')
    out.append(ctype('CONFIGURATION', ['<xs:element name="property" minOccurs="1" maxOccurs="unbounded"><xs:complexType><xs:sequence>',
        '    ' + el('name', S), '    ' + el('value', S), '    ' + el('description', S, 0), '</xs:sequence></xs:complexType></xs:element>']))
    out.append(ctype('STREAMING', [el('mapper', S, 0), el('reducer', S, 0), el('record-reader', S, 0), el('record-reader-mapping', S, 0, None), el('env', S, 0, None)]))
    out.append(ctype('PIPES', [el(x, S, 0) for x in ['map', 'reduce', 'inputformat', 'partitioner', 'writer', 'program']]))
    out.append(ctype('PREPARE', [el('delete', w('DELETE'), 0, None), el('mkdir', w('MKDIR'), 0, None)]))
    out.append(ctype('DELETE', None, [('path', S, True)] + ([('skip-trash', 'xs:boolean', False)] if n >= (0, 5) else [])))
    out.append(ctype('MKDIR', None, [('path', S, True)]))
    out.append(ctype('MOVE', None, [('source', S, True), ('target', S, True)]))
    chmod_attrs = [('path', S, True), ('permissions', S, True), ('dir-files', S, False)]
    out.append(ctype('CHMOD', [el('recursive', w('FLAG'), 0)] if n >= (0, 4) else None, chmod_attrs))
    if n >= (0, 4):
        out.append(ctype('TOUCHZ', None, [('path', S, True)]))
    if n >= (0, 4, 5):
        out.append(ctype('CHGRP', [el('recursive', w('FLAG'), 0)], [('path', S, True), ('group', S, True), ('dir-files', S, False)]))
    if n >= (0, 5):
        out.append(ctype('SETREP', None, [('path', S, True), ('replication-factor', 'xs:short', True)]))
    if n >= (0, 2, 5):
        out.append('<xs:complexType name="CREDENTIALS">\n    <xs:sequence minOccurs="0" maxOccurs="unbounded">\n        <xs:element name="credential" type="workflow:CREDENTIAL"/>\n    </xs:sequence>\n</xs:complexType>')
        out.append(ctype('CREDENTIAL', ['<xs:element name="property" minOccurs="1" maxOccurs="unbounded"><xs:complexType><xs:sequence>',
            '    ' + el('name', S), '    ' + el('value', S), '    ' + el('description', S, 0), '</xs:sequence></xs:complexType></xs:element>'],
            [('name', S, True), ('type', S, True)]).replace('<xs:sequence>', '<xs:sequence minOccurs="0" maxOccurs="unbounded">', 1))
    body = '\n\n'.join(textwrap.indent(o, '    ') for o in out)
    header = f'''<?xml version="1.0" encoding="UTF-8"?>
<!-- Oozie workflow schema {v}, as Oozie publishes it (client/src/main/resources/
     oozie-workflow-{v}.xsd at apache/oozie 8bdac8be), written for coordc by
     tools/gen_workflow_xsd.py from one description of all versions.
     coordc validates documents of this namespace against this file. -->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:workflow="{ns}"
           elementFormDefault="qualified" targetNamespace="{ns}">

'''
    return header + body + '\n</xs:schema>\n'

import sys
for v in ['0.1', '0.2', '0.2.5', '0.3', '0.4', '0.4.5', '0.5']:
    open(f'{sys.argv[1]}/oozie-workflow-{v}.xsd', 'w').write(schema(v))
