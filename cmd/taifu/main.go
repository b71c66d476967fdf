// Command taifu teaches itself large chess variants: it counts and lists
// moves, plays self-play games into Parquet, tunes evaluation weights and
// exports learned piece values. Run "taifu help" for the subcommands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"taifu/internal/atomicfile"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/storage"
)

// command is one subcommand. Each lives in its own file and registers itself
// in init with register.
type command struct {
	name    string
	summary string
	// run parses args (not including the subcommand name) and does the work.
	// stdout and stderr are the streams to use.
	run func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errUsage reports that flags were wrong (exit status 2); a flagError says
// why in one line.
var errUsage = errors.New("usage")

// flagError is a flag that did not parse: one line with a hint to -h,
// exit status 2 (errors.Is(err, errUsage)).
type flagError struct{ msg string }

func (e flagError) Error() string        { return e.msg }
func (e flagError) Is(target error) bool { return target == errUsage }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 && args[0] == "help" {
			// "taifu help <command>": that command's flags, on stdout.
			if args[1] == "search" {
				searchHelp(stdout)
				return 0
			}
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "taifu help: unknown command %q%s (run \"taifu help\")\n", rules.Clip(args[1]), didYouMean(args[1]))
				return 2
			}
			fmt.Fprintf(stdout, "taifu %s: %s\n", c.name, c.summary) // no blank line: train's flags fill a screen
			c.run([]string{"-h"}, stdout, stdout)
			return 0
		}
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "taifu: unknown command %q%s (run \"taifu help\")\n", rules.Clip(args[0]), didYouMean(args[0]))
		return 2
	}
	if err := storage.TimeoutFromEnv(); err != nil {
		fmt.Fprintf(stderr, "taifu %s: %s\n", c.name, err)
		return 2
	}
	storage.SetLog(stderr) // waits and retries of object store calls
	if err := c.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // -h asked for the flags, as "taifu help <command>"
		}
		if errors.Is(err, errUsage) {
			if err != errUsage {
				fmt.Fprintf(stderr, "taifu %s: %s\n", c.name, oneLine(err.Error()))
			}
			return 2
		}
		var stopped *interrupted
		if errors.As(err, &stopped) {
			// What a goroutine was still writing (an abandoned fit's feature
			// cache) is removed, and nothing more is written.
			atomicfile.Abandon()
			fmt.Fprintf(stderr, "taifu %s: %s\n", c.name, oneLine(err.Error()))
			return stopped.exitCode()
		}
		fmt.Fprintf(stderr, "taifu %s: %s\n", c.name, oneLine(err.Error()))
		return 1
	}
	return 0
}

// maxErrLine bounds a printed error: the offending input it quotes is clipped
// to rules.MaxQuoted bytes where it is quoted; this catches the rest.
const maxErrLine = 600

// oneLine makes an error message one line of at most maxErrLine bytes, a
// package prefix said twice in a row ("datasets: datasets: ") once.
func oneLine(s string) string {
	s = dedupePrefixes(strings.ReplaceAll(strings.TrimSpace(s), "\n", "; "))
	if len(s) > maxErrLine {
		n := maxErrLine
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "..."
	}
	return s
}

// dedupePrefixes drops a "word: " part of s that repeats the one before it,
// where word is a package-like name (lower-case letters, digits, "/"), as
// when a package's error is wrapped again with the same prefix.
func dedupePrefixes(s string) string {
	parts := strings.Split(s, ": ")
	out := parts[:1]
	for _, p := range parts[1:] {
		if last := out[len(out)-1]; p == last && isPrefixWord(p) {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, ": ")
}

func isPrefixWord(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '/') {
			return false
		}
	}
	return true
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: taifu <command> [flags]\n\ncommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"taifu help <command>\" or \"taifu <command> -h\" for a command's flags, \"taifu help search\" for the search flags;")
	fmt.Fprintln(w, "docs/usage.md describes them. A bad flag or flag value exits with status 2, a failed run with 1.")
}

// badValue matches the flag package's error for a value a flag refused.
var badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (.*)$`)

// flagSetMade, when set (by a test), sees every FlagSet newFlags makes.
var flagSetMade func(*flag.FlagSet)

// newFlags returns a FlagSet that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("taifu "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(fs) }
	if flagSetMade != nil {
		flagSetMade(fs)
	}
	return fs
}

// parseFlags parses args and rejects stray positional arguments. A flag
// that does not parse ("--games 1e3", "--cpuct -2") is one line naming it
// and what it needs, not the whole flag list; -h prints the list.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package prints the list on any error
	err := fs.Parse(args)
	fs.SetOutput(out)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return flag.ErrHelp
		}
		if m := badValue.FindStringSubmatch(err.Error()); m != nil {
			return flagError{fmt.Sprintf("--%s %s: %s (run \"%s -h\" for the flags)", m[2], rules.Clip(m[1]), m[3], fs.Name())}
		}
		return flagError{fmt.Sprintf("%v (run \"%s -h\" for the flags)", err, fs.Name())}
	}
	if fs.NArg() > 0 {
		return flagError{fmt.Sprintf("unexpected argument %q (run \"%s -h\" for the flags)", rules.Clip(fs.Arg(0)), fs.Name())}
	}
	return checkDeprecated(fs, args, out)
}

// didYouMean is ": did you mean \"X\"?" naming the commands within two
// edits (a transposition counts as one) of name, or "".
func didYouMean(name string) string {
	var near []string
	for n := range commands {
		if editDistance(name, n) <= 2 {
			near = append(near, fmt.Sprintf("%q", n))
		}
	}
	if len(near) == 0 {
		return ""
	}
	sort.Strings(near)
	return "; did you mean " + strings.Join(near, " or ") + "?"
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of adjacent
// bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
