package docker

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/network"
)

// reapLoop reaps once at once, then every ReapInterval until Close.
func (p *Provider) reapLoop() {
	t := time.NewTicker(p.opts.ReapInterval)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, _ = p.Reap(ctx)
		cancel()
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
	}
}

// Reap removes the engine's sandbox containers (any provider's: those
// labelled io.agentenkit.managed) that are past their hard end, or idle
// past their end by more than ReapGrace, or stopped. It is the host's
// backstop to each container's watchdog, for a watchdog that was stopped or
// whose state was corrupted by a command run as root. It returns the ids it
// removed.
//
// The idle end is the deadline the watchdog keeps (rewritten every second
// while a command runs); a missing or garbled one counts from its last
// write, or from the creation, by the idle time fixed at creation. A command
// run as root can still move the idle end (up to the hard end): the hard end
// is the one bound nothing inside the container can move.
func (p *Provider) Reap(ctx context.Context) ([]string, error) {
	if p.err != nil {
		return nil, p.err
	}
	list, err := p.api.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", labelManaged+"=1"))})
	if err != nil {
		return nil, fmt.Errorf("docker: list sandboxes: %w", err)
	}
	now := time.Now()
	var removed []string
	for _, c := range list {
		if !p.expired(ctx, c, now) {
			continue
		}
		err := p.api.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err == nil || isNotFound(err) || isConflict(err) {
			removed = append(removed, c.ID)
		}
	}
	return removed, nil
}

func (p *Provider) expired(ctx context.Context, c container.Summary, now time.Time) bool {
	l := c.Labels
	unix := func(key string) (time.Time, bool) {
		n, err := strconv.ParseInt(l[key], 10, 64)
		return time.Unix(n, 0), err == nil
	}
	if end, ok := unix(labelHardEnd); ok && !now.Before(end) {
		return true
	}
	created := time.Unix(c.Created, 0)
	switch c.State {
	case "running":
	case "created":
		// Between create and start, or a Create that died half way.
		return now.Sub(created) > 10*time.Minute
	case "removing":
		return false
	default:
		// Stopped containers are auto-removed; give the engine a moment.
		return now.Sub(created) > p.opts.ReapGrace
	}
	idle, err := strconv.Atoi(l[labelIdle])
	if err != nil {
		idle = int(DefaultLifetime.Seconds())
	}
	end := created.Add(time.Duration(idle) * time.Second)
	if d, written, ok := p.deadline(ctx, c.ID); ok {
		end = d
	} else if !written.IsZero() {
		end = written.Add(time.Duration(idle) * time.Second)
	}
	return now.After(end.Add(p.opts.ReapGrace))
}

// deadline reads the watchdog's deadline file through the engine (no exec:
// a container full of processes still answers). ok is false when there is
// none or it is garbled; written is the file's last change when it exists.
func (p *Provider) deadline(ctx context.Context, id string) (end, written time.Time, ok bool) {
	rc, _, err := p.api.CopyFromContainer(ctx, id, stateDir+"/deadline")
	if err != nil {
		return end, written, false
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	hdr, err := tr.Next()
	if err != nil {
		return end, written, false
	}
	b, err := io.ReadAll(io.LimitReader(tr, 64))
	if err != nil {
		return end, hdr.ModTime, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return end, hdr.ModTime, false
	}
	return time.Unix(n, 0), hdr.ModTime, true
}

// ensureNetwork returns the ID of the bridge network of sandboxes with
// network all, made when the engine does not have it: containers on it
// reach the outside but not each other (inter-container traffic off).
func (p *Provider) ensureNetwork(ctx context.Context) (string, error) {
	p.netMu.Lock()
	defer p.netMu.Unlock()
	id, err := p.findNetwork(ctx)
	if err != nil || id != "" {
		return id, err
	}
	_, err = p.api.NetworkCreate(ctx, p.opts.NetworkName, network.CreateOptions{
		Driver:  "bridge",
		Options: map[string]string{"com.docker.network.bridge.enable_icc": "false"},
		Labels:  map[string]string{labelManaged: "1"},
	})
	if err != nil && !isConflict(err) {
		return "", fmt.Errorf("docker: create network %s: %w", p.opts.NetworkName, err)
	}
	id, err = p.findNetwork(ctx)
	if err == nil && id == "" {
		err = fmt.Errorf("docker: network %s was made but the engine does not list it", p.opts.NetworkName)
	}
	return id, err
}

// findNetwork returns the ID of the network named Options.NetworkName, or
// "" when there is none. Two processes making it at once can leave two of
// that name (the engine's duplicate check is not atomic: seen with two test
// processes on Debian's docker.io), and a name then no longer names one network: every provider
// takes the one made first (then the lowest ID), so all agree, and removes
// the others that no container uses.
func (p *Provider) findNetwork(ctx context.Context) (string, error) {
	name := p.opts.NetworkName
	list, err := p.api.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("name", name))})
	if err != nil {
		return "", fmt.Errorf("docker: list networks named %s: %w", name, err)
	}
	var same []network.Summary
	for _, n := range list {
		if n.Name == name { // the filter also matches names that contain it
			same = append(same, n)
		}
	}
	if len(same) == 0 {
		return "", nil
	}
	slices.SortFunc(same, func(a, b network.Summary) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	for _, n := range same[1:] {
		if n.Labels[labelManaged] == "1" {
			_ = p.api.NetworkRemove(ctx, n.ID) // one a container uses stays
		}
	}
	n := same[0]
	if n.Driver != "bridge" || n.Options["com.docker.network.bridge.enable_icc"] != "false" {
		return "", fmt.Errorf("docker: network %s exists but is not a bridge with inter-container traffic off: remove it (docker network rm %s) or set docker.Options.NetworkName", name, name)
	}
	return n.ID, nil
}
