package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"sort"
	"strconv"
	"strings"

	"taifu/mcts"
	"taifu/weightsio"
)

// The flags' help: one line per flag, the search settings (the same in
// every command that searches) named in a compact block whose one-line
// descriptions "taifu help search" prints; details live in docs/usage.md
// and docs/search.md. Deprecated spellings work, warn once, and are not
// listed.

// The usages of the flags whose name means one thing in every command
// (docs/usage.md, "Shared flags"; TestFlagVocabulary pins them).
const (
	threadsUsage    = "goroutines computing at once (0: one per core)"
	policyUsage     = "fit the weights' policy (learned move priors): on, off, or only (tune: value terms kept)"
	policyFromUsage = "where the policy fit starts: start (the starting weights' policy) or hand (the hand prior)"
	weightsUsage    = `weights: a file or URL, start (the starting estimate), "" or builtin (the shipped)`
	quietUsage      = "no progress output"
)

// builtinHint adds to a weights file that does not exist how to name the
// shipped weights wherever the command runs (outside the repository
// configs/weights/ is not there, but the binary carries a copy).
func builtinHint(err error) error {
	if err != nil && errors.Is(err, iofs.ErrNotExist) {
		return fmt.Errorf("%w (the game's shipped weights: %q, or \"\")", err, weightsio.Builtin)
	}
	return err
}

// deprecatedFlag is an old spelling of the flag --use: setting it sets
// Value and prints a one-line warning naming --use (parseFlags); giving
// both is a usage error.
type deprecatedFlag struct {
	flag.Value
	use string
}

// IsBoolFlag makes the old spelling of a switch a switch.
func (d *deprecatedFlag) IsBoolFlag() bool {
	b, ok := d.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// deprecate defines --old on fs as the deprecated spelling of its flag
// --use (defined before).
func deprecate(fs *flag.FlagSet, old, use string) {
	deprecateVar(fs, fs.Lookup(use).Value, old, use)
}

// deprecateVar defines --old on fs, setting v (an old spelling that reads
// its value in another unit, as --tc in seconds for --move-ms), as the
// deprecated spelling of --use.
func deprecateVar(fs *flag.FlagSet, v flag.Value, old, use string) {
	fs.Var(&deprecatedFlag{v, use}, old, "deprecated: use --"+use)
}

// checkDeprecated warns on w of every deprecated spelling that was given
// (args, parsed by fs), and refuses one given with its new spelling (a
// usage error).
func checkDeprecated(fs *flag.FlagSet, args []string, w io.Writer) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// tune's --quiet=off|filter|resolve: the old spelling of --captures.
	for _, a := range args {
		if a == "--" {
			break
		}
		name, v, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if _, err := strconv.ParseBool(v); !ok || name != "quiet" || err == nil || fs.Lookup("captures") == nil {
			continue
		}
		if set["captures"] {
			return flagError{fmt.Sprintf("--quiet=%s and --captures: give one (--quiet=%s is the deprecated spelling of --captures %s)", v, v, v)}
		}
		fmt.Fprintf(w, "%s: --quiet=%s is deprecated; use --captures %s\n", fs.Name(), v, v)
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		d, ok := f.Value.(*deprecatedFlag)
		if !ok || err != nil {
			return
		}
		if set[d.use] {
			err = flagError{fmt.Sprintf("--%s and --%s: give one (--%s is the deprecated spelling of --%s)", f.Name, d.use, f.Name, d.use)}
			return
		}
		fmt.Fprintf(w, "%s: --%s is deprecated; use --%s\n", fs.Name(), f.Name, d.use)
	})
	return err
}

// searchFlag returns the prefix of f's name ("", "selfplay-" or "match-")
// when f is a search setting's flag (mcts.BindFlags: a setting, or
// prefix+"search", the override spec).
func searchFlag(f *flag.Flag) (prefix string, ok bool) {
	switch fmt.Sprintf("%T", f.Value) {
	case "*mcts.settingFlag":
		for _, s := range mcts.Settings() {
			if p, found := strings.CutSuffix(f.Name, s.Name); found && (p == "" || strings.HasSuffix(p, "-")) {
				return p, true
			}
		}
	case "*mcts.specFlag":
		return strings.TrimSuffix(f.Name, "search"), true
	}
	return "", false
}

// printUsage is every command's -h: "Usage of taifu CMD:" and its flags
// (printFlagLines).
func printUsage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprintf(w, "Usage of %s:\n", fs.Name())
	printFlagLines(w, fs, func(string) bool { return true })
}

// printFlagLines prints the flags of fs that keep keeps, one line each
// ("  --name ARG  what it does (default D)"), but the deprecated spellings,
// and the search settings' flags as one block per prefix: the names, and
// the defaults this command gives them.
func printFlagLines(w io.Writer, fs *flag.FlagSet, keep func(string) bool) {
	search := map[string][]*flag.Flag{}
	fs.VisitAll(func(f *flag.Flag) {
		if !keep(f.Name) {
			return
		}
		if _, ok := f.Value.(*deprecatedFlag); ok {
			return
		}
		if p, ok := searchFlag(f); ok {
			search[p] = append(search[p], f)
			return
		}
		fmt.Fprintln(w, flagLine(f))
	})
	var prefixes []string
	for p := range search {
		prefixes = append(prefixes, p)
	}
	sort.Strings(prefixes)
	for _, p := range prefixes {
		fmt.Fprintln(w, searchBlock(p, search[p]))
	}
}

// flagLine is one flag's help line.
func flagLine(f *flag.Flag) string {
	arg, usage := flag.UnquoteUsage(f)
	name := "--" + f.Name
	if a, ok := argNames[arg]; ok && !strings.Contains(f.Usage, "`") {
		arg = a
	}
	if arg != "" {
		name += " " + strings.ToUpper(arg)
	}
	return fmt.Sprintf("  %-26s %s%s", name, usage, defaultNote(f.DefValue))
}

// argNames name the argument of a flag whose usage names none.
var argNames = map[string]string{"string": "text", "int": "n", "uint": "n", "float": "x", "duration": "d", "value": "v"}

// funcValue is a flag.Value that hands its text to a function (as
// flag.Func's, which deprecateVar cannot name).
type funcValue func(string) error

func (f funcValue) Set(s string) error { return f(s) }
func (f funcValue) String() string     { return "" }

// defaultNote is " (default D)", or "" for a default that says nothing
// (zero, empty, off, or the game's own: the usage says what it means).
func defaultNote(d string) string {
	switch d {
	case "", "0", "false", "default", "off", "[]":
		return ""
	}
	if strings.ContainsAny(d, " ,") {
		d = fmt.Sprintf("%q", d)
	}
	return " (default " + d + ")"
}

// searchBlock is the help of the search settings' flags with prefix p:
// where their descriptions are, and the defaults this command gives them.
func searchBlock(p string, flags []*flag.Flag) string {
	var set []string
	for _, f := range flags {
		if d := defaultNote(f.DefValue); d != "" {
			set = append(set, "--"+f.Name+" "+f.DefValue)
		}
	}
	what := "search flags"
	switch p {
	case "selfplay-":
		what = "the self-play's search flags"
	case "match-":
		what = "the match's search flags"
	}
	s := fmt.Sprintf("  %-26s %s: --playouts, --cpuct, --priors, ... (taifu help search)", "--NAME VALUE", what)
	if p != "" {
		s = fmt.Sprintf("  %-26s %s: NAME any of taifu help search", "--"+p+"NAME VALUE", what)
	}
	if len(set) > 0 {
		s += "\n  " + strings.Repeat(" ", 27) + "defaults here: " + strings.Join(set, ", ")
	}
	return s
}

// searchHelp is "taifu help search": every search setting's flag, one
// line each.
func searchHelp(w io.Writer) {
	fmt.Fprintln(w, "taifu search flags: the same in selfplay, match, xboard and train (--selfplay-NAME, --match-NAME); docs/search.md")
	fmt.Fprintln(w, "0 (or unset) means the default each line states, \"default\" the game's own.")
	fmt.Fprintln(w)
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	var c mcts.Config
	mcts.BindFlags(fs, "", &c)
	for _, s := range mcts.Settings() {
		fmt.Fprintln(w, flagLine(fs.Lookup(s.Name)))
	}
	fmt.Fprintln(w, flagLine(fs.Lookup("search")))
}
