// The xterm.js harness of todo-shell's end-to-end tests: a headless
// xterm.js terminal (the emulator inside VS Code's terminal) that a Go test
// drives over stdin and stdout, one JSON object a line.
//
// From the test:
//   {"op":"write","data":B64}        bytes the program wrote to its pty
//   {"op":"resize","cols":C,"rows":R,"id":N}
//   {"op":"snapshot","id":N}          once every write before it is parsed
// To the test:
//   {"op":"data","data":B64}          the terminal's answers (to queries)
//   {"id":N,...}                      an acknowledgement; a snapshot carries
//                                     lines (scrollback and screen, top
//                                     first), baseY (the first screen row's
//                                     index), lastCells (each line's last
//                                     non-blank column), cursorX, cursorY,
//                                     cols, rows
import { createInterface } from 'node:readline';
import xterm from '@xterm/headless';

const { Terminal } = xterm;
const cols = Number(process.argv[2] || 80);
const rows = Number(process.argv[3] || 24);
const term = new Terminal({ cols, rows, scrollback: 10000, allowProposedApi: true });

const send = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
term.onData((data) => send({ op: 'data', data: Buffer.from(data, 'binary').toString('base64') }));
term.onBinary((data) => send({ op: 'data', data: Buffer.from(data, 'binary').toString('base64') }));

// OSC 11 (the background colour): xterm.js answers it itself only with a
// theme; answer as a dark terminal does.
term.parser.registerOscHandler(11, (data) => {
  if (data === '?') {
    send({ op: 'data', data: Buffer.from('\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\').toString('base64') });
    return true;
  }
  return false;
});

function snapshot(id) {
  const buf = term.buffer.active;
  const lines = [];
  const lastCells = []; // per line: the column of its last non-blank cell
  for (let i = 0; i < buf.length; i++) {
    const line = buf.getLine(i);
    lines.push(line ? line.translateToString(true) : '');
    let last = -1;
    for (let x = 0; line && x < term.cols; x++) {
      const c = line.getCell(x);
      if (c && c.getChars() !== '' && c.getChars() !== ' ') last = x;
    }
    lastCells.push(last);
  }
  send({ id, lines, lastCells, baseY: buf.baseY, cursorX: buf.cursorX, cursorY: buf.cursorY, cols: term.cols, rows: term.rows });
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line) return;
  const msg = JSON.parse(line);
  switch (msg.op) {
    case 'write':
      term.write(Buffer.from(msg.data, 'base64'));
      break;
    case 'resize':
      // Everything written before is parsed first, as in a terminal that
      // resizes between two reads of the program's output.
      term.write('', () => {
        term.resize(msg.cols, msg.rows);
        send({ id: msg.id });
      });
      break;
    case 'snapshot':
      term.write('', () => snapshot(msg.id));
      break;
  }
});
rl.on('close', () => process.exit(0));
