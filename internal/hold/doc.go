// Package hold keeps an agent session's plan the way a Stop hook and a
// status line need it: the list now, what left it unfinished since the
// person's last prompt (an item removed while pending, one reworded into
// another, one reworded and ticked off in the same change), whether the
// person interrupted since the plan last changed, and how many times the
// stop was held in this prompt.
//
// It reads the session's transcript (Claude Code, Codex or Gemini CLI, as
// package plan reads them) a piece at a time: what it knows is kept in a
// small state file per transcript, with the offset it read up to, so a
// call reads only what the agent wrote since the last one. A transcript it
// has never seen is read from its end backwards, only as far as the
// person's last prompt and the plan in force then. Every file is opened
// through the read gate: no symlink, no FIFO, regular files only, lines
// capped. A transcript that shrank, or whose bytes before the offset
// changed, is read again as if new.
//
// It decides, and says nothing: a Stop verdict (Session.Stop) is data —
// whether the stop is held, the items held (each as the plan has it: its
// text, task id, shared plan, status, how it left the plan and what it
// became, its blockers), the holds counted against the limit, and why a
// stop with items held goes through — and so is the shared plan given as
// context (Session.Context: its name and tasks). Package hook words them
// (the reason, the note to the person, the context text) and neutralises
// the plan's texts there: those here are the files' own, untrusted. Only
// ReasonLead, the start of every reason, is kept here, since the reader
// tells the hook's own reason in a Gemini CLI transcript by it.
package hold
