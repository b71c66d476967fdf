package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

// addCPUProfile adds --cpuprofile to fs. The returned start begins the
// profile when the flag was given and returns the function that ends it
// (and closes the file); call it after the flags parsed.
func addCPUProfile(fs *flag.FlagSet) (start func() (stop func(), err error)) {
	path := fs.String("cpuprofile", "", "write a pprof CPU profile of the command to this file")
	return func() (func(), error) {
		if *path == "" {
			return func() {}, nil
		}
		f, err := os.Create(*path)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--cpuprofile %s: %v", *path, err)
		}
		return func() { pprof.StopCPUProfile(); f.Close() }, nil
	}
}
