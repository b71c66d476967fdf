package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decodeStrict reads a YAML manifest into v, refusing any field v's type
// does not have (a misspelt or misplaced field would be dropped silently by
// kubectl's client-side defaults).
func decodeStrict(t *testing.T, path string, v any) {
	t.Helper()
	y, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// flags returns a container's --name=value arguments with $(VAR)
// references expanded from its env values, as the kubelet does.
func flags(t *testing.T, c corev1.Container) (string, map[string]string) {
	t.Helper()
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	ref := regexp.MustCompile(`\$\(([A-Z_][A-Z0-9_]*)\)`)
	out := map[string]string{}
	for _, a := range c.Args[1:] {
		a = ref.ReplaceAllStringFunc(a, func(m string) string {
			v, ok := env[m[2:len(m)-1]]
			if !ok || v == "" {
				t.Errorf("%s: %s refers to an unset variable", c.Name, a)
			}
			return v
		})
		name, value, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !ok {
			value = "true"
		}
		out[name] = value
	}
	return c.Args[0], out
}

// secretEnv checks that the container takes both bucket keys from the
// Secret of secret.example.yaml, not from literal values.
func secretEnv(t *testing.T, c corev1.Container, secret *corev1.Secret) {
	t.Helper()
	for _, key := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		found := false
		for _, e := range c.Env {
			if e.Name != key {
				continue
			}
			found = true
			if e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
				t.Errorf("%s: %s is not taken from a Secret", c.Name, key)
				continue
			}
			ref := e.ValueFrom.SecretKeyRef
			if ref.Name != secret.Name {
				t.Errorf("%s: %s from Secret %q, the Secret is %q", c.Name, key, ref.Name, secret.Name)
			}
			if _, ok := secret.StringData[ref.Key]; !ok {
				t.Errorf("%s: %s from key %q, which the Secret lacks", c.Name, key, ref.Key)
			}
		}
		if !found {
			t.Errorf("%s: no %s", c.Name, key)
		}
	}
}

func TestKubernetesManifests(t *testing.T) {
	var secret corev1.Secret
	decodeStrict(t, "k8s/secret.example.yaml", &secret)
	if secret.Kind != "Secret" || secret.Name == "" {
		t.Fatalf("secret.example.yaml: kind %q name %q", secret.Kind, secret.Name)
	}
	var sp, tu batchv1.Job
	decodeStrict(t, "k8s/selfplay-job.yaml", &sp)
	decodeStrict(t, "k8s/tune-job.yaml", &tu)
	for _, j := range []*batchv1.Job{&sp, &tu} {
		if j.APIVersion != "batch/v1" || j.Kind != "Job" {
			t.Errorf("%s: apiVersion %q kind %q", j.Name, j.APIVersion, j.Kind)
		}
		if len(j.Spec.Template.Spec.Containers) != 1 {
			t.Fatalf("%s: %d containers, want 1", j.Name, len(j.Spec.Template.Spec.Containers))
		}
	}

	// Self-play: an Indexed Job whose completion index is the shard.
	s := sp.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("selfplay: completionMode %v, want Indexed (JOB_COMPLETION_INDEX is only set then)", s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil {
		t.Fatal("selfplay: completions or parallelism unset")
	}
	if *s.Parallelism < 1 || *s.Parallelism > *s.Completions {
		t.Errorf("selfplay: parallelism %d with %d completions", *s.Parallelism, *s.Completions)
	}
	if s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex < 1 {
		t.Errorf("selfplay: backoffLimitPerIndex %v: a failed shard must be retried on its own", s.BackoffLimitPerIndex)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("selfplay: restartPolicy %q, backoffLimitPerIndex needs Never", s.Template.Spec.RestartPolicy)
	}
	c := s.Template.Spec.Containers[0]
	cmd, f := flags(t, c)
	if cmd != "selfplay" {
		t.Fatalf("selfplay: command %q", cmd)
	}
	if want := "auto/" + strconv.Itoa(int(*s.Completions)); f["shard"] != want {
		t.Errorf("selfplay: --shard %q, want %q (one shard per completion index)", f["shard"], want)
	}
	if f["seed"] == "" {
		t.Error("selfplay: no --seed: the shards would play different runs")
	}
	workers, err := strconv.Atoi(f["workers"])
	if err != nil || workers < 1 {
		t.Fatalf("selfplay: --workers %q", f["workers"])
	}
	req, lim := c.Resources.Requests[corev1.ResourceCPU], c.Resources.Limits[corev1.ResourceCPU]
	if req.MilliValue() != int64(1000*workers) {
		t.Errorf("selfplay: CPU request %s for --workers %d (one core a worker)", req.String(), workers)
	}
	if !lim.IsZero() && lim.Cmp(req) < 0 {
		t.Errorf("selfplay: CPU limit %s below the request %s", lim.String(), req.String())
	}
	out := f["out"]
	if !strings.HasPrefix(out, "s3://") {
		t.Errorf("selfplay: --out %q is not an s3:// URL", out)
	}
	secretEnv(t, c, &secret)

	// Tuning reads the run the self-play Job writes.
	tc := tu.Spec.Template.Spec.Containers[0]
	cmd, g := flags(t, tc)
	if cmd != "tune" {
		t.Fatalf("tune: command %q", cmd)
	}
	if g["data"] != out {
		t.Errorf("tune: --data %q, self-play writes %q", g["data"], out)
	}
	if g["game"] != f["game"] || g["game"] == "" {
		t.Errorf("tune: --game %q, self-play plays %q", g["game"], f["game"])
	}
	if g["out"] == "" {
		t.Error("tune: no --out")
	}
	tw, _ := strconv.Atoi(g["threads"])
	treq := tc.Resources.Requests[corev1.ResourceCPU]
	if tw < 1 || treq.MilliValue() != int64(1000*tw) {
		t.Errorf("tune: CPU request %s for --threads %q", treq.String(), g["threads"])
	}
	if tu.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever && tu.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("tune: restartPolicy %q", tu.Spec.Template.Spec.RestartPolicy)
	}
	secretEnv(t, tc, &secret)
}

// TestSlurmScript checks the sbatch script's wiring: the array is 0..N-1
// for --shard auto/N, and --workers is the task's CPU count.
func TestSlurmScript(t *testing.T) {
	b, err := os.ReadFile("slurm/selfplay.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	arr := regexp.MustCompile(`(?m)^#SBATCH --array=0-([0-9]+)$`).FindStringSubmatch(s)
	shards := regexp.MustCompile(`(?m)^SHARDS=([0-9]+)`).FindStringSubmatch(s)
	if arr == nil || shards == nil {
		t.Fatalf("no #SBATCH --array=0-M or SHARDS=N line")
	}
	last, _ := strconv.Atoi(arr[1])
	if n, _ := strconv.Atoi(shards[1]); n != last+1 {
		t.Errorf("--array=0-%d is %d tasks, SHARDS=%d", last, last+1, n)
	}
	for _, want := range []string{`--shard "auto/${SHARDS}"`, `--workers "${SLURM_CPUS_PER_TASK}"`, `--out "${TAIFU_RUN}"`, "#SBATCH --cpus-per-task=", "--seed "} {
		if !strings.Contains(s, want) {
			t.Errorf("selfplay.sbatch lacks %q", want)
		}
	}
	if !strings.HasPrefix(s, "#!/bin/bash\n") {
		t.Error("selfplay.sbatch: no #!/bin/bash line")
	}
}
