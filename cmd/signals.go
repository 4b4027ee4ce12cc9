package cmd

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// terminateSignals end todo-shell in every mode that has no terminal UI of
// its own: Ctrl+C, kill, a closed terminal.
var terminateSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// notifyTerminate returns a context cancelled by the first terminate signal.
// On that signal, before cancelling, it kills every process group a's bash
// commands started (the running call's result then says it was
// interrupted). caught returns the signal's number, 0 when none came; call
// stop when done.
func notifyTerminate(a *app) (ctx context.Context, caught func() int, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, terminateSignals...)
	var got atomic.Int32
	go func() {
		select {
		case sig := <-sigs:
			if n, ok := sig.(syscall.Signal); ok {
				got.Store(int32(n))
			}
			cancel()
			a.runner.Kill()
		case <-ctx.Done():
		}
	}()
	return ctx, func() int { return int(got.Load()) }, func() {
		signal.Stop(sigs)
		cancel()
	}
}
