package docker

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/containerd/errdefs"
	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// engine is every Engine API call the adapter makes, so that a move to
// another client module, or a fake, stays in one place.
type engine interface {
	Ping(ctx context.Context) (types.Ping, error)
	ImageInspect(ctx context.Context, imageID string, opts ...client.ImageInspectOption) (image.InspectResponse, error)
	ImagePull(ctx context.Context, ref string, opts image.PullOptions) (io.ReadCloser, error)
	ContainerCreate(ctx context.Context, config *container.Config, host *container.HostConfig, net *network.NetworkingConfig, platform *ocispec.Platform, name string) (container.CreateResponse, error)
	ContainerStart(ctx context.Context, id string, opts container.StartOptions) error
	ContainerInspect(ctx context.Context, id string) (container.InspectResponse, error)
	ContainerRemove(ctx context.Context, id string, opts container.RemoveOptions) error
	ContainerExecCreate(ctx context.Context, id string, opts container.ExecOptions) (container.ExecCreateResponse, error)
	ContainerExecAttach(ctx context.Context, execID string, opts container.ExecAttachOptions) (types.HijackedResponse, error)
	ContainerExecInspect(ctx context.Context, execID string) (container.ExecInspect, error)
	CopyToContainer(ctx context.Context, id, dstPath string, content io.Reader, opts container.CopyToContainerOptions) error
	CopyFromContainer(ctx context.Context, id, srcPath string) (io.ReadCloser, container.PathStat, error)
	ContainerStatPath(ctx context.Context, id, path string) (container.PathStat, error)
	ContainerList(ctx context.Context, opts container.ListOptions) ([]container.Summary, error)
	ContainerUpdate(ctx context.Context, id string, update container.UpdateConfig) (container.UpdateResponse, error)
	NetworkCreate(ctx context.Context, name string, opts network.CreateOptions) (network.CreateResponse, error)
	NetworkList(ctx context.Context, opts network.ListOptions) ([]network.Summary, error)
	NetworkRemove(ctx context.Context, id string) error
}

var _ engine = (*client.Client)(nil)

func isNotFound(err error) bool { return err != nil && errdefs.IsNotFound(err) }
func isConflict(err error) bool { return err != nil && errdefs.IsConflict(err) }

func dockerHost() string {
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		return h
	}
	return client.DefaultDockerHost
}

// pull fetches img, printing the engine's progress lines to stderr.
func (p *Provider) pull(ctx context.Context, img string) error {
	rc, err := p.api.ImagePull(ctx, img, image.PullOptions{})
	if err != nil {
		return fmt.Errorf("docker: pull %s: %w", img, err)
	}
	defer rc.Close()
	fmt.Fprintf(os.Stderr, "docker: pulling %s\n", img)
	if _, err := io.Copy(io.Discard, rc); err != nil {
		return fmt.Errorf("docker: pull %s: %w", img, err)
	}
	return nil
}
