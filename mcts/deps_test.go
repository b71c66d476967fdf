package mcts

import (
	"os/exec"
	"strings"
	"testing"
)

// cloudPrefixes are the import paths of cloud SDKs and of gocloud.dev,
// which the object store drivers come with.
var cloudPrefixes = []string{"cloud.google.com/", "github.com/aws/", "github.com/Azure/", "github.com/AzureAD/",
	"google.golang.org/api", "google.golang.org/grpc", "gocloud.dev/"}

// TestNoCloudSDK: the search and the evaluation link no cloud SDK (weights
// files are read by package weightsio, object stores by package storage
// with drivers that only cmd/taifu imports). Before, features read weights
// through storage, and `go list -deps taifu/mcts` listed 859 packages, 195
// of them cloud SDKs.
func TestNoCloudSDK(t *testing.T) {
	for _, pkg := range []string{"taifu/mcts", "taifu/features"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		var cloud []string
		for _, d := range deps {
			for _, p := range cloudPrefixes {
				if strings.HasPrefix(d, p) {
					cloud = append(cloud, d)
					break
				}
			}
		}
		if len(cloud) > 0 || len(deps) < 10 {
			t.Errorf("%s: %d dependencies, %d of them cloud: %.300q", pkg, len(deps), len(cloud), cloud)
		}
	}
}
