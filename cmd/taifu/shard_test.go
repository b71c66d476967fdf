package main

import (
	"strings"
	"testing"
)

func TestParseShardFlag(t *testing.T) {
	for _, c := range []struct {
		flag          string
		env           map[string]string
		shard, shards int
		auto          bool
		err           string
	}{
		{flag: "1/4", shard: 1, shards: 4},
		{flag: "1/4", env: map[string]string{envJobIndex: "3"}, shard: 1, shards: 4}, // i/N ignores the environment
		{flag: "auto/4", env: map[string]string{envJobIndex: "3"}, shard: 3, shards: 4, auto: true},
		{flag: "auto/4", env: map[string]string{envJobIndex: "0", envSlurmTask: "2"}, shard: 0, shards: 4, auto: true},
		{flag: "auto/4", env: map[string]string{envSlurmTask: "2"}, shard: 2, shards: 4, auto: true},
		{flag: "auto", env: map[string]string{envSlurmTask: "2", envSlurmCount: "5"}, shard: 2, shards: 5, auto: true},
		{flag: "auto/8", env: map[string]string{envSlurmTask: "2", envSlurmCount: "5"}, shard: 2, shards: 8, auto: true},
		{flag: "auto", env: map[string]string{envJobIndex: "2"}, err: "no shard count"},
		{flag: "auto/4", err: "neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID"},
		{flag: "auto/4", env: map[string]string{envJobIndex: "4"}, err: "want 0 <= index < shards"},
		{flag: "auto/4", env: map[string]string{envJobIndex: "x"}, err: "JOB_COMPLETION_INDEX"},
		{flag: "auto/0", env: map[string]string{envJobIndex: "0"}, err: "want 0 <= index < shards"},
		{flag: "4/4", err: "want i/N"},
	} {
		shard, shards, auto, err := parseShardFlag(c.flag, func(k string) string { return c.env[k] })
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("--shard %s %v: err %v, want %q", c.flag, c.env, err, c.err)
			}
			continue
		}
		if err != nil || shard != c.shard || shards != c.shards || auto != c.auto {
			t.Errorf("--shard %s %v = %d/%d auto %v, %v; want %d/%d auto %v", c.flag, c.env, shard, shards, auto, err, c.shard, c.shards, c.auto)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"runs/typhoon-1": "runs/typhoon-1",
		"s3://b/r?endpoint=http://h:9000&use_path_style=true": "'s3://b/r?endpoint=http://h:9000&use_path_style=true'",
		"it's": `'it'\''s'`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
