package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// stopSignals are the signals that stop a long command cleanly: SIGINT
// (Ctrl-C) and SIGTERM (what Kubernetes, Slurm and systemd send). Both are
// handled alike everywhere: the command saves what it finished and exits
// with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// interrupted is returned by a command that a stop signal ended after it
// saved its work; run prints it and exits 128 + the signal's number.
type interrupted struct {
	sig  os.Signal
	what string // what was kept and how to continue
}

func (e *interrupted) Error() string {
	return fmt.Sprintf("interrupted by %s: %s", signalName(e.sig), e.what)
}

// exitCode is 128 + the signal's number, as a shell reports a process
// killed by it.
func (e *interrupted) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// stopContext returns a context cancelled by the first stop signal, and a
// function giving that signal (nil while none came). stop ends the
// handling.
func stopContext() (ctx context.Context, got func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	var mu sync.Mutex
	var first os.Signal
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			mu.Lock()
			first = s
			mu.Unlock()
			cancel()
		case <-done:
		}
	}()
	got = func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return first
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
	return ctx, got, stop
}
