"""The vendor CLIs' own grammar: global options before the subcommand, resource names.

``aws --profile prod s3 rb s3://b``, ``gcloud --project p auth print-access-token``,
``kubectl -n prod delete deploy api``, ``helm --kube-context prod uninstall app``: a global
option and its value come before the words that say what the command does. The rules that
read those words (:mod:`.secret_stores`, :mod:`.routine_destructive`, :mod:`.cloud_access`)
take them from :func:`operands`, which skips each option of the table below together with its
value (``--profile prod``; ``--profile=prod`` is one word).

| CLI                 | options that take the next word (each CLI's global options page)   |
| ------------------- | ------------------------------------------------------------------ |
| ``aws``             | ``--profile --region --output --endpoint-url --query --color        |
|                     | --ca-bundle --cli-read-timeout --cli-connect-timeout                |
|                     | --cli-binary-format``                                               |
| ``gcloud``          | ``--project --account --configuration --format --verbosity          |
|                     | --impersonate-service-account --billing-project --flatten           |
|                     | --trace-token --access-token-file``                                 |
| ``gsutil``          | ``-o -h -u -p``                                                     |
| ``az``              | ``--subscription --output -o --query``                              |
| ``kubectl``, ``oc`` | ``-n --namespace --context --cluster --user --kubeconfig -s --server|
|                     | --token --as --as-group --as-uid --request-timeout`` and the TLS    |
|                     | files; the ``get`` options ``-o -l --selector --field-selector …``  |
| ``helm``            | ``-n --namespace --kube-context --kubeconfig --kube-token           |
|                     | --kube-apiserver --kube-as-user --kube-as-group --registry-config   |
|                     | --repository-config --repository-cache --burst-limit``              |
| ``gh``, ``glab``    | ``-R --repo``                                                       |
| ``doctl``           | ``--context -t --access-token -o --output -c --config -u --api-url``|
| ``pulumi``          | ``-C --cwd -s --stack``                                             |
| ``vercel``          | ``-t --token -S --scope --cwd -A --local-config -Q --global-config``|
| ``wrangler``        | ``-c --config -e --env --cwd``                                      |
| ``firebase``        | ``-P --project --token --account``                                  |
| ``fly``, ``flyctl`` | ``-a --app -c --config -t --access-token``                          |
| ``supabase``        | ``--workdir --profile``                                             |
| ``doppler``         | ``-p --project -c --config -t --token``                             |
| ``heroku``          | ``-a --app -r --remote``                                            |
| ``op``, ``bw``      | ``--account --config --session``                                    |
| ``dotenv(x)``       | ``-f --file -e --export`` (dotenvx ``-fk --env-keys-file``)         |
| ``tooldeck``        | ``--config``                                                        |
| ``npm``, ``pnpm``,  | ``-w --workspace --prefix``; ``-F --filter -C --dir``; ``--cwd``;   |
| ``yarn``            | ``--registry``                                                      |
| ``docker``,         | ``-c --context -H --host --config -l --log-level``; ``--connection  |
| ``podman``          | --url --root --runroot``                                            |

A value that names a cloud resource rather than a file is no path for the sandbox
(:func:`resource_name_words`): Azure's resource ids (``/subscriptions/…``, ``/providers/…``)
and the values of ``aws``'s ``--name``/``--names``/``--path`` and of every ``--…-name`` or
``--…-path`` option (SSM parameter, IAM path and log group names: ``aws ssm get-parameter
--name /app/region``, ``--log-group-name /aws/lambda/api``, the group of ``aws logs tail``;
its file options take ``file://``).
"""

from __future__ import annotations

from collections.abc import Sequence

from tooldeck.shell_analysis.model import Segment

__all__ = ["GLOBAL_VALUE_OPTIONS", "operands", "resource_name_words"]

_KUBE = frozenset({
    "-n", "--namespace", "--context", "--cluster", "--user", "--kubeconfig", "-s",
    "--server", "--token", "--as", "--as-group", "--as-uid", "--request-timeout",
    "--certificate-authority", "--client-certificate", "--client-key", "--tls-server-name",
    "-o", "--output", "-l", "--selector", "--field-selector", "--template", "--sort-by",
    "-L", "--label-columns", "--chunk-size", "--profile", "--profile-output",
})

GLOBAL_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "aws": frozenset({"--profile", "--region", "--output", "--endpoint-url", "--query",
                      "--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout",
                      "--cli-binary-format"}),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--format",
                         "--verbosity", "--impersonate-service-account", "--billing-project",
                         "--flatten", "--trace-token", "--access-token-file"}),
    "gsutil": frozenset({"-o", "-h", "-u", "-p"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query"}),
    "kubectl": _KUBE, "oc": _KUBE,
    "helm": frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig", "--kube-token",
                       "--kube-apiserver", "--kube-as-user", "--kube-as-group",
                       "--registry-config", "--repository-config", "--repository-cache",
                       "--burst-limit"}),
    "gh": frozenset({"-R", "--repo"}), "glab": frozenset({"-R", "--repo"}),
    "doctl": frozenset({"--context", "-t", "--access-token", "-o", "--output", "-c",
                        "--config", "-u", "--api-url"}),
    "pulumi": frozenset({"-C", "--cwd", "-s", "--stack"}),
    "vercel": frozenset({"-t", "--token", "-S", "--scope", "--cwd", "-A", "--local-config",
                         "-Q", "--global-config"}),
    "wrangler": frozenset({"-c", "--config", "-e", "--env", "--cwd"}),
    "firebase": frozenset({"-P", "--project", "--token", "--account"}),
    "fly": frozenset({"-a", "--app", "-c", "--config", "-t", "--access-token"}),
    "flyctl": frozenset({"-a", "--app", "-c", "--config", "-t", "--access-token"}),
    "supabase": frozenset({"--workdir", "--profile"}),
    "doppler": frozenset({"-p", "--project", "-c", "--config", "-t", "--token"}),
    "heroku": frozenset({"-a", "--app", "-r", "--remote"}),
    "op": frozenset({"--account", "--config", "--session"}),
    "bw": frozenset({"--session"}),
    "dotenv": frozenset({"-f", "--file", "-e", "--export"}),
    "dotenvx": frozenset({"-f", "--env-file", "-fk", "--env-keys-file"}),
    "tooldeck": frozenset({"--config"}),
    # the package managers' and engines' options before a publish or a push
    "npm": frozenset({"-w", "--workspace", "--prefix", "--registry"}),
    "pnpm": frozenset({"-F", "--filter", "-C", "--dir", "--registry"}),
    "yarn": frozenset({"--cwd", "--registry"}),
    "docker": frozenset({"-c", "--context", "-H", "--host", "--config", "-l", "--log-level"}),
    "podman": frozenset({"-c", "--connection", "--url", "--root", "--runroot"}),
}
"""Options of each CLI that take the next word as their value (the module table)."""

_AZURE_IDS = ("/subscriptions/", "/providers/")
_AWS_NAME_OPTIONS = frozenset({"--name", "--names", "--path"})
_AWS_NAME_SUFFIXES = ("-name", "-names", "-name-prefix", "-path", "-path-prefix")


def _aws_name_option(option: str) -> bool:
    """``--name``, ``--path`` and every ``--…-name``/``--…-path`` (``--log-group-name``)."""
    return option in _AWS_NAME_OPTIONS or (option.startswith("--")
                                           and option.endswith(_AWS_NAME_SUFFIXES))


def _log_group_operands(segment: Segment, start: int) -> frozenset[int]:
    """``aws logs tail GROUP``: the log group it follows (``/aws/lambda/api``)."""
    values = [w.value for w in segment.words[start:]]
    words = operands("aws", values)
    if segment.command != "aws" or words[:2] != ["logs", "tail"] or len(words) < 3:
        return frozenset()
    return frozenset({start + values.index(words[2])})


def operands(head: str, args: Sequence[str]) -> list[str]:
    """The words of a vendor CLI's command line that are not options or their values.

    :param head: the command name (``aws``).
    :param args: its arguments, in order.
    :returns: ``["s3", "rb", "s3://b"]`` for ``aws --profile prod s3 rb s3://b --force``.
    """
    values = GLOBAL_VALUE_OPTIONS.get(head, frozenset())
    return [a for previous, a in zip(["", *args], args, strict=False)
            if not a.startswith("-") and previous not in values]


def resource_name_words(segment: Segment) -> frozenset[int]:
    """The positions of the words that name a cloud resource, not a file (the module text).

    :param segment: one analysed segment.
    :returns: word indexes the path rules skip.
    """
    if segment.command not in ("az", "aws") or not segment.command_positions:
        return frozenset()
    found: set[int] = set()
    start = segment.command_positions[-1] + 1
    log_groups = _log_group_operands(segment, start)
    for index in range(start, len(segment.words)):
        value = segment.words[index].value
        option, joined, tail = value.partition("=")
        azure_id = segment.command == "az" and (tail if joined else value).startswith(
            _AZURE_IDS)
        aws_name = segment.command == "aws" and (
            (joined and _aws_name_option(option))
            or (index > start and _aws_name_option(segment.words[index - 1].value))
            or index in log_groups)
        if azure_id or aws_name:
            found.add(index)
    return frozenset(found)
