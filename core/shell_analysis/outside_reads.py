"""Reading outside the root is not writing outside it: which path words are only read.

The sandbox-path rule denies a path argument that resolves outside the roots. Two kinds of
path word are exempt from that deny (the gate decides what they get instead):

| kind                 | example                            | why                                |
| -------------------- | ---------------------------------- | ---------------------------------- |
| read-only inspection | ``ls /usr/lib``, ``cat /etc/os-release``, | the command only reads; a  |
|                      | ``grep x /proc/cpuinfo``           | secret path stays denied           |
| program in the tree  | ``.venv/bin/python``, ``./gradlew``, | the link lies inside the project:|
|                      | ``node_modules/.bin/tsc``          | the program is judged as a command |

A word counts as read-only when every segment it appears in runs a read-only command
(:data:`READ_ONLY`, ``find`` without ``-exec``/``-delete``/``-fprint``…, ``sort`` without
``-o``) and it is no redirect target. ``cd``/``pushd`` count as read-only only when every
segment of the command is read-only and nothing is redirected (``cd /etc && rm passwd`` and
``cd /etc && cat > x`` stay denied). Options that write or run something (``sort -o``,
``tree -o``, ``rg --pre``) make a command not read-only. ``git log|show|rev-parse…``
(history, not ``status``/``diff``) of a repository elsewhere is a read (``git -C ../lib
log``). A writing command's input files
are reads too (:func:`input_files`: ``git commit -F /tmp/msg``, ``cp /etc/hosts .``).

:data:`SECRET_PATTERNS` stay denied to every reader; they come from credential harvesters'
module lists and the applications' documentation (each group's comment names them). A glob
that spells a secret's name names that secret on the machine it runs on
(:func:`glob_names_secret`: ``~/Library/Application Support/Google/Chrome/*/Login*``).
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import os
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.data_args import PRINTERS
from tooldeck.shell_analysis.git_options import without_git_options
from tooldeck.shell_analysis.model import CommandAnalysis, Segment
from tooldeck.shell_analysis.paths import is_path_like, path_value
from tooldeck.shell_analysis.toolchain_dirs import TOOLCHAIN_DIR

__all__ = [
    "FORM_READERS", "METADATA_ONLY", "READ_ONLY", "SCRIPT_DENIED_PREFIXES", "SCRIPT_RUNNERS",
    "SECRET_PATTERNS",
    "glob_names_secret", "input_files", "interpreted_scripts", "is_secret_path", "metadata_paths",
    "printed_paths",
    "program_paths", "read_only_paths", "script_paths", "toolchain_reads",
]

READ_ONLY: frozenset[str] = frozenset({
    "ls", "stat", "file", "du", "df", "wc", "head", "tail", "cat", "less", "more", "grep",
    "egrep", "fgrep", "rg", "ag", "tree", "readlink", "realpath", "md5sum", "sha1sum",
    "sha256sum", "sha512sum", "b2sum", "cksum", "diff", "cmp", "od", "hexdump", "strings",
    "test", "[", "which", "type", "lsattr", "getfacl", "cut", "jq", "column", "basename",
    "dirname", "tac", "nl", "find", "sort", "bat", "zcat", "zgrep", "nm", "objdump", "readelf",
    "namei", "getfattr", "getcap",
    # more inspection commands that take no output file (their manuals): dump, compare,
    # format, page and look up what they are given
    "ldd", "comm", "join", "yq", "whereis", "locate", "pr", "fold", "fmt", "expand",
    "rev", "paste", "zless", "zmore", "bzcat", "xzcat", "zstdcat", "lz4cat", "pygmentize",
    "sum", "modinfo", "lsblk", "findmnt", "lsof", "base64", "base32", "batcat",
    # login records, media and document metadata, binaries and hex dumps (their manuals:
    # none writes a file but through the options of :data:`_WRITING_OPTIONS`)
    "last", "lastb", "lastlog", "utmpdump", "ffprobe", "mediainfo", "pdfinfo", "identify",
    "highlight", "hexyl", "hd", "size", "zipinfo", "sha224sum", "sha384sum", "shasum",
    "xmllint", "iconv", "bzless", "xzless", "zstdless", "lzcat", "look",
    # modern listers and finders (their manuals: they print, never write)
    "eza", "exa", "lsd", "fd", "fdfind",
    # initramfs listers (their manuals: they print an image's files, never write)
    "lsinitramfs", "lsinitrd",
    # macOS inspection (their manuals: Spotlight metadata and search, Mach-O headers and
    # debug info); locate's other implementations (plocate(1), mlocate)
    "mdls", "mdfind", "otool", "dwarfdump", "plocate", "mlocate",
})
"""Commands that only read the paths they are given (with the exceptions above).

Some more read only in some forms (:func:`_read_only_form`): ``awk`` whose program
neither runs, pipes nor redirects; ``sed`` without ``-i`` whose script has no ``w``,
``e`` or ``r`` command; ``xxd`` without ``-r`` and without an output operand; ``tar``
listing (``-t``), ``unzip -l|-v|-t|-Z``; ``dpkg``'s and ``rpm``'s queries; ``exiftool``
without a tag assignment or an output option; on macOS ``codesign -d|-v`` (not signing or
extracting), ``spctl -a|--status``, ``plutil -p|-lint``, ``xattr`` without ``-w|-d|-c``,
``lipo -info|-archs``, ``pkgutil``'s queries, ``tmutil``'s listings and status,
``diskutil list|info|verify*``, ``defaults read|read-type|find|domains`` and
``PlistBuddy -c Print``."""

METADATA_ONLY: frozenset[str] = frozenset({
    "stat", "test", "[", "ls", "namei", "getfacl", "lsattr", "getcap", "realpath", "readlink",
    "du",
})
"""Commands that read a file's metadata, never its content: a secret's permissions or
size (``stat -c %a /etc/shadow``, LinEnum's ``ls -la /etc/shadow``) reveal no secret."""

SECRET_PATTERNS: tuple[str, ...] = (
    "*/.ssh", "*/.ssh/*", "*/.aws", "*/.aws/*", "*/.gnupg*", "*/.kube/*",
    "*/.docker/config.json", "*/.netrc", "*/.git-credentials", "*/.npmrc", "*/.pypirc",
    "*/.env", "*/.env.*", "*.pem", "*.key", "*/id_rsa*", "*/id_ed25519*", "*/id_ecdsa*",
    "*/id_dsa*", "*/shadow", "*/shadow-", "*/gshadow", "*/sudoers", "/etc/sudoers.d",
    "/etc/sudoers.d/*",
    "*/master.passwd", "/proc/*/environ", "/proc/*/mem", "*/credentials",
    # the machine's memory as a file (tracee's proc_kcore_read detector; mem(4)): every
    # process's secrets in it
    "/proc/kcore", "/dev/mem", "/dev/kmem",
    "*/credentials.*", "*/.*history", "*/Library/Keychains*",
    # the shells' and less's other history files (fish, zsh's usual HISTFILE, macOS
    # sessions, less(1)'s LESSHISTFILE): what was typed, passwords on command lines included
    "*/fish_history", "*/.histfile", "*/.zsh_sessions/*", "*/.lesshst",
    "*/.config/gcloud*", "*/.azure*", "*/.password-store*", "*/.vault-token",
    "*/.config/gh/hosts.yml", "*/.cargo/credentials*", "/etc/ssl/private*",
    "/var/run/secrets/*", "/run/secrets/*", "*/.pgpass", "*/.my.cnf", "*/.s3cfg", "*/.boto",
    "*/.terraform.d/*", "*/.config/rclone/*", "*/.local/share/keyrings/*", "*/.mozilla/*",
    "*/.config/google-chrome/*", "*/.config/chromium/*", "*/.config/op/*", "*/.config/hub",
    "*/ssh_host_*", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx", "*.ppk", "*.keytab",
    "*/secring.*", "*/.htpasswd", "*.tfstate", "*.tfstate.*", "*/.android/adbkey*",
    "*/wallet.dat", "*/.config/sops/*", "*/.oci/*", "*/.databrickscfg",
    # LinPEAS' sensitive files (peass-ng/PEASS-ng build_lists/sensitive_files.yaml @ c7ff1e9):
    # the ones that hold a credential by what they are, not every interesting config
    "*/.mylogin.cnf", "/etc/mysql/debian.cnf", "*/pgadmin4.db", "*/tomcat-users.xml",
    "*/rsyncd.secrets", "*/credentials.tfrc.json", "*kubeconfig*", "/etc/kubernetes/*.conf",
    "*.ovpn", "*/legacy_credentials*", "*/application_default_credentials.json",
    "*/access_tokens.db", "*/accessTokens.json", "*/msal_token_cache*", "*/TokenCache.dat",
    "*/service_principal_entries*", "*/.bluemix/*", "*/doctl/config.yaml",
    "*/firebase-tools.json", "*/.codex/auth.json", "*/.claude/.credentials.json",
    "*/.claude.json", "*/.gemini/oauth_creds.json", "*/krb5cc_*", "*/.k5login",
    "*/secrets.ldb", "*/.secrets.mkey", "/etc/sssd/sssd.conf", "*/.erlang.cookie",
    "*/ipsec.secrets", "*/.irssi/config", "*/recentservers.xml", "*/filezilla.xml",
    "*/private-keys-v1.d/*", "*/autologin.conf", "*/.flyrc", "*/.cloudflared/*",
    "*/.msmtprc", "*sslkeylog*", "*.psk", "*/kcpassword", "*/master.key",
    "*/hudson.util.Secret", "*/.wgetrc", "/etc/NetworkManager/system-connections/*",
    "/etc/wpa_supplicant/*",
    # MITRE T1555.003 (browser credential stores), T1003 (SSSD's cached hashes), T1548.003
    # (sudo's timestamps): documented locations
    "*/Login Data*", "*/logins.json", "*/key3.db", "*/key4.db", "*/cookies.sqlite", "*/Cookies",
    "*/Web Data", "/var/lib/sss/db/*", "/var/lib/sss/secrets/*", "/var/run/sudo/ts/*",
    "/run/sudo/ts/*", "/var/lib/sudo/*",
    # Safari's cookie jar (Panther's MacOS_Browser_Credential_Access query, panther-labs/
    # panther-analysis@daa10c88: ~/Library/Cookies, Cookies.binarycookies)
    "*.binarycookies", "*/Library/Cookies/*",
    # Datadog's CREDENTIAL_FILES list (runtime/default.policy: *client_secret*.json*,
    # *-key.json*, *api_key*, *.token*), Wrangler's local secrets (.dev.vars) and Flutter's
    # Android signing passwords (android/key.properties), by their documented names
    "*/client_secret*.json", "*/*-key.json", "*/api_key", "*/apikey", "*/*_api_key",
    "*.token", "*/.dev.vars", "*/key.properties",
    # the rest of LinPEAS' credential entries (sensitive_files.yaml @ 012d8df: VNC, Racoon,
    # Hostapd, Anaconda ks, Cloud Credentials, Kerberos, Other Interesting Files, FTP, Jetty,
    # Filezilla, Keepass) and MITRE T1003.008 (password-hash backups, old passwords)
    "*/.vnc/passwd", "*/psk.txt", "*/hostapd.conf", "*/anaconda-ks.cfg",
    "*/AzureRMContext.json", "*/.google_authenticator", "*/.ldaprc", "*/sitemanager.xml",
    "*/winscp.ini", "*/ws_ftp.ini", "*.ftpconfig", "*/jetty-realm.properties",
    "*/KeePass.config*", "*/ddclient.conf", "*/shadow.bak", "*/shadow.old", "*/shadow~",
    "*/gshadow-", "/var/backups/*shadow*", "/etc/security/opasswd", "/dev/mem", "/dev/kmem",
    # credential stores of developer tools and clients (each tool's documentation: registry
    # logins, deploy CLIs, Maven's master password, SVN's cached logins, Pidgin and Remmina
    # passwords, DBeaver's saved connections, Electron apps' token stores, a container's
    # environment on disk, k3s' admin kubeconfig and join token, age keys)
    "*/containers/auth.json", "*/.composer/auth.json", "*/.config/composer/auth.json",
    "*/NuGet/NuGet.Config", "*/.m2/settings-security.xml", "*/.terraformrc",
    "*/.vercel/auth.json", "*/com.vercel.cli/auth.json", "*/.netlify/config.json",
    "*/.config/netlify/config.json", "*/.subversion/auth/*", "*/.purple/accounts.xml",
    "*.remmina", "*/remmina.pref", "*/.dbeaver/credentials-config.json",
    "*/Local Storage/leveldb/*", "/var/lib/docker/containers/*/config.v2.json",
    "/etc/rancher/k3s/k3s.yaml", "/var/lib/rancher/k3s/server/token",
    "/var/lib/rancher/k3s/server/cred/*", "*/age/keys.txt", "*/.vault_pass*", "*/vault_pass*",
    "*/vault-pass*", "*/.vault-password*",
    # files that hold a key by their documented names (gitleaks' and trufflehog's path
    # rules, each vendor's docs): Rails' and generic secrets files, Google service-account
    # and Firebase Admin SDK keys, Docker's legacy login file, deploy keys
    "*/secrets.json", "*/secrets.yml", "*/secrets.yaml", "*/secrets.toml",
    "*service-account*.json", "*service_account*.json", "*-adminsdk-*.json", "*/.dockercfg",
    "*/deploy_key", "*/deploy_key.*",
    # developer CLIs' token files by their documented locations (each CLI's docs; gitleaks'
    # and trufflehog's detectors name the same tokens): Fly, Vercel, Stripe, ngrok, MinIO,
    # Gradle and Maven repository passwords, Snowflake, dbt, IBM Cloud, Alibaba Cloud,
    # Hetzner, Linode, CircleCI, Travis, GitLab and Gitea CLIs, Teleport and step-ca keys,
    # an encrypted netrc, Vim's history of registers
    "*/.fly/config.yml", "*/.config/vercel/auth.json", "*/.config/stripe/config.toml",
    "*/.ngrok2/ngrok.yml", "*/.config/ngrok/ngrok.yml", "*/ngrok/ngrok.yml",
    "*/.mc/config.json", "*/.gradle/gradle.properties", "*/.m2/settings.xml",
    "*/.snowsql/config", "*/.dbt/profiles.yml", "*/.ibmcloud/config.json",
    "*/.aliyun/config.json", "*/.config/hcloud/cli.toml", "*/.linode-cli",
    "*/.config/linode-cli", "*/.circleci/cli.yml", "*/.travis/config.yml",
    "*/.config/glab-cli/config.yml", "*/.config/tea/config.yml", "*/.tsh/keys/*",
    "*/.step/secrets/*", "*/.netrc.gpg", "*/.viminfo",
    # Hex's API key (mix hex.user auth writes ~/.hex/hex.config) and the Snowflake CLI's
    # connections with their passwords (docs.snowflake.com: connections.toml, config.toml)
    "*/.hex/hex.config", "*/.snowflake/connections.toml", "*/.snowflake/config.toml",
    # coding agents' own API keys and tokens by their documented locations (each agent's
    # docs: Continue's config with apiKey entries, GitHub Copilot's OAuth tokens, opencode's
    # provider logins, aider's OAuth keys, Codeium/Windsurf's key)
    "*/.continue/config.json", "*/.continue/config.yaml", "*/.config/github-copilot/hosts.json",
    "*/.config/github-copilot/apps.json", "*/opencode/auth.json", "*/.aider/oauth-keys.env",
    "*/.codeium/config.json",
    # macOS's personal stores an infostealer copies (Atomic Red Team T1005/T1114 macOS tests,
    # Apple's container names): Notes, Messages and Mail
    "*/group.com.apple.notes/*", "*/NoteStore.sqlite*", "*/Library/Messages/*",
    "*/Library/Mail/*",
    # cryptocurrency wallets (MITRE T1005 infostealer reports): key files by location
    "*/.bitcoin/wallets/*", "*/.electrum/wallets/*", "*/.ethereum/keystore/*",
    "*/exodus.wallet/*", "*/.monero/*.keys", "*/.config/solana/id.json",
    "*/.config/Ledger Live/*",
    # and their folders listed or searched whole (each wallet's support pages: Bitcoin Core's
    # wallets directory, geth's keystore, Electrum's wallets, Exodus' and Coinomi's data
    # folders, Ledger Live's and Trezor Suite's application data)
    "*/.bitcoin/wallets", "*/.electrum/wallets", "*/.ethereum/keystore", "*/Exodus",
    "*/Exodus/*", "*/Coinomi", "*/Coinomi/*", "*/Ledger Live", "*/Ledger Live/*",
    "*/@trezor/suite-desktop*",
    # API tokens of data and monitoring CLIs, shell-history databases, age keys, editors'
    # token stores (each tool's documentation: Kaggle's kaggle.json, sentry-cli's
    # .sentryclirc, Helm's repository passwords, Atuin's history, age's key files, VS Code's
    # state database holding extensions' tokens)
    "*/.kaggle/kaggle.json", "*/.sentryclirc", "*/.config/helm/repositories.yaml",
    "*/atuin/history.db", "*/.age/*", "*/state.vscdb*",
    # more of LinPEAS' credential holders (sensitive_files.yaml, as above) and developer
    # tools' token files by their documented locations: WordPress' database password, a
    # GitLab runner's token, Ceph's keyrings, MySQL's password hashes, slapd's rootpw;
    # Cloudflare Wrangler, Railway, Okta, GitHub Copilot, Codeium, Cursor's MCP servers'
    # keys, Doppler, JFrog; Atuin's sync key, Telegram's session, git's credential cache
    "*/wp-config.php", "/etc/gitlab-runner/config.toml", "/etc/ceph/*.keyring",
    "*/mysql/user.MYD", "/etc/openldap/slapd.conf", "/etc/ldap/slapd.conf",
    "*/.wrangler/config/*", "*/.railway/config.json", "*/.okta/okta.yaml",
    "*/github-copilot/hosts.json", "*/github-copilot/apps.json", "*/.codeium/config.json",
    "*/.cursor/mcp.json", "*/.doppler/*", "*/.doppler.yaml", "*/.jfrog/jfrog-cli.conf*",
    "*/atuin/key", "*/tdata/key_data*", "*/.git-credential-cache/*",
    # Yarn Berry's npmAuthToken, the X server's and session manager's cookies (whoever holds
    # one reads the screen and types into it), the mongo shell's history, Signal Desktop's
    # database key
    "*/.yarnrc.yml", "*/.Xauthority", "*/.ICEauthority", "*/.dbshell", "*/Signal/config.json",
    # the mail spools (LinEnum's interesting_files "readmailroot", LinPEAS' mails check):
    # cron's output, password resets and whatever else was mailed to an account
    "/var/mail/*", "/var/spool/mail/*",
    # a deployed environment's settings, where the frameworks' documentation puts the
    # connection strings and passwords of that environment: ASP.NET Core's
    # appsettings.{Environment}.json, Spring Boot's application-{profile} files
    "*/appsettings.Production.json", "*/appsettings.Staging.json",
    "*/application-prod.properties", "*/application-prod.yml", "*/application-prod.yaml",
    "*/application-production.properties", "*/application-production.yml",
    "*/application-production.yaml",
    # a Kubernetes control plane's certificates and keys (tracee's detectors/kubernetes_
    # certificate_theft_attempt.go: any read under /etc/kubernetes/pki/) and Samba's password
    # databases (passdb.tdb, secrets.tdb: the accounts' NT hashes, smbpasswd(5))
    "/etc/kubernetes/pki", "/etc/kubernetes/pki/*", "/var/lib/samba/private/*",
    # Atlassian Confluence's database settings (Elastic's credential_access_kubernetes_and_
    # cloud_credential_paths_via_process_args lists both files)
    "*/confluence.cfg.xml", "*/confluence/conf/server.xml",
    # credential harvesters' module lists, by location (AlessandroZ/LaZagne
    # Linux/lazagne/softwares and Mac/, moonD4rk/HackBrowserData browser/browser_{linux,
    # darwin}.go, n0fate/chainbreaker) and each application's documentation. Browsers: the
    # Chromium profiles' key file (Local State), session and extension stores (wallet vaults),
    # every Chromium and Firefox user-data directory on both systems
    "*/Local State", "*/Session Storage/*", "*/Local Extension Settings/*",
    "*/Local Storage/leveldb", "*/.config/google-chrome*/*", "*/.config/chromium*/*",
    "*/.config/BraveSoftware/*", "*/.config/microsoft-edge*/*", "*/.config/vivaldi*/*",
    "*/.config/opera*/*", "*/Application Support/Google/Chrome*/*",
    "*/Application Support/Chromium/*", "*/Application Support/BraveSoftware/*",
    "*/Application Support/Microsoft Edge*/*", "*/Application Support/Vivaldi/*",
    "*/Application Support/com.operasoftware.Opera*/*", "*/Application Support/Firefox/*",
    # mail and chat clients (LaZagne mails/, chats/; Claws Mail, HexChat, isync, fetchmail,
    # Signal and Telegram Desktop documentation)
    "*/.claws-mail/accountrc", "*/.claws-mail/passwordstorerc", "*/psi*/profiles/*/accounts.xml",
    "*/.jitsi/sip-communicator.properties", "*/hexchat/servlist.conf", "*/.mbsyncrc",
    "*/isync/mbsyncrc", "*/.fetchmailrc", "*/Signal/sql/*", "*/TelegramDesktop/tdata*",
    "*/Telegram Desktop/tdata*",
    # Wi-Fi and VPN stores (LaZagne wifi/; wpa_supplicant.conf(5), wg-quick(8), OpenVPN's
    # auth-user-pass and inline keys, Tunnelblick's and Viscosity's configurations)
    "/etc/NetworkManager/system-connections", "*/wpa_supplicant*.conf", "*/etc/wireguard",
    "*/etc/wireguard/*", "/etc/openvpn/*", "*/Tunnelblick/Configurations*",
    "*/Viscosity/OpenVPN/*",
    # keyrings and keychains (LaZagne wallet/kde.py; chainbreaker's SystemKey and keychain
    # copies; LaZagne Mac hashdump's ShadowHashData plists)
    "*/kwalletd/*", "*.kwl", "*/var/db/SystemKey", "*.keychain", "*.keychain-db",
    "*/dslocal/nodes/*/users/*",
    # database clients (LaZagne databases/, sysadmin/apachedirectorystudio.py; JetBrains'
    # c.pwd and c.kwallet password stores, MySQL Workbench, Robo 3T/Studio 3T, TablePlus,
    # Sequel Ace/Pro, RESP.app, MongoDB Compass documentation)
    "*/JetBrains/*/c.pwd", "*/JetBrains/*/c.kwallet", "*/workbench_user_data.dat", "*/.3T/*",
    "*/com.tinyapp.TablePlus/*", "*/Sequel Ace/Data/*", "*/Sequel Pro/Data/*",
    "*/.rdm/connections.json", "*/.dbvis/*", "*/.sqldeveloper/*", "*/.squirrel-sql/SQLAliases*",
    "*/.ApacheDirectoryStudio/*/connections.xml", "*/MongoDB Compass/Connections/*",
    # FTP and SSH clients (LaZagne sysadmin/gftp.py; Termius, SecureCRT, Royal TSX,
    # Transmit documentation)
    "*/.gftp/bookmarks", "*/.gftp/gftprc", "*/Termius/*", "*/SecureCRT/Config/*", "*.rtsz",
    "*/Transmit/Favorites*",
    # developer tools (Helm's registry logins, pnpm's global rc, Poetry's auth.toml),
    # password managers' local vaults (Bitwarden, 1Password, gopass) and wallets (Exodus,
    # Wasabi, Sparrow, Monero's GUI wallets)
    "*/helm/registry/config.json", "*/pnpm/rc", "*/pypoetry/auth.toml", "*/Bitwarden*/data.json",
    "*/1password*.sqlite", "*/gopass/stores/*", "*/exodus.wallet*",
    "*/.walletwasabi/client/Wallets/*", "*/.sparrow/wallets/*", "*/Monero/wallets/*",
    # REPL histories by other names (Julia's repl_history.jl, Neovim's ShaDa registers)
    "*/repl_history.jl", "*.shada",
    # cloud instances and clusters: cloud-init's user and vendor data, the Azure agent's
    # ovf-env.xml and CustomData, etcd's data directory (every Secret of the cluster),
    # MicroK8s' and RKE2's credentials, kubelet's Secret volumes; systemd's credential
    # stores (systemd-creds(1)); RHEL's TLS private keys; GRUB's password file
    "/var/lib/cloud/instance*/user-data*", "/var/lib/cloud/instance*/vendor-data*",
    "/var/lib/waagent/*", "/var/lib/etcd/*", "*/microk8s/*/credentials/*",
    "/etc/rancher/*/*.yaml", "/var/lib/rancher/*/server/*token", "/var/lib/rancher/*/server/cred/*",
    "*/kubernetes.io~secret/*", "/etc/credstore*", "/run/credentials/*",
    "/etc/pki/tls/private*", "/boot/grub*/user.cfg",
    # the directories above whose every file is a secret, copied or archived whole
    "*/Session Storage", "*/Local Extension Settings", "*/Signal/sql", "/etc/openvpn",
    "*/Viscosity/OpenVPN", "*/kwalletd", "*/.3T", "*/com.tinyapp.TablePlus", "*/.dbvis",
    "*/.sqldeveloper", "*/MongoDB Compass/Connections", "*/Termius", "*/SecureCRT/Config",
    "*/gopass/stores", "*/.walletwasabi/client/Wallets", "*/.sparrow/wallets",
    "*/Monero/wallets", "/var/lib/waagent", "/var/lib/etcd", "*/.config/Bitwarden*",
    "*/Application Support/Bitwarden*",
    # Docker contexts' TLS keys, JetBrains Toolbox's token store (each tool's documentation)
    "*/.docker/contexts/tls", "*/.docker/contexts/tls/*", "*/JetBrains/Toolbox/.securestorage",
)
"""Paths that stay denied even to a read-only command (fnmatch, on the absolute path)."""

_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint",
                           "-fprintf", "-fprint0", "-fls"})
_DIRECTORY_CHANGERS = frozenset({"cd", "pushd"})


_SECRET_WORDS = re.compile(r"secret|passw(?!d$)|token|api[_-]?key|private[_-]?key|access[_-]?key|"
                           r"credential|\.vault", re.IGNORECASE)
_CODE_SUFFIXES = (".py", ".js", ".ts", ".go", ".rs", ".rb", ".java", ".c", ".h", ".md", ".rst",
                  ".html", ".sh", ".txt.in")


def is_secret_path(path: str) -> bool:
    """Tell whether an absolute path names a secret (keys, credentials, shadow files).

    :param path: an absolute, normalised path.
    :returns: true when a :data:`SECRET_PATTERNS` entry matches, or when the file's name says
        it holds a secret (``api_token.txt``, ``secrets.yaml``; source code such as
        ``password_test.py`` is not one, nor an installed file of :data:`_INSTALLED_TREES`,
        nor is the world-readable account list ``passwd``,
        whose hashes live in ``shadow``, nor a public key, ``~/.ssh/id_rsa.pub``).
    """
    name = path.rsplit("/", 1)[-1]
    if name.endswith(".pub") and "/" in path:  # ~/.ssh/id_rsa.pub: a public key
        return False
    if any(fnmatch.fnmatchcase(path, pattern) for pattern in SECRET_PATTERNS):
        return True
    return bool(_SECRET_WORDS.search(name)) and not (
        name.endswith(_CODE_SUFFIXES) or path.startswith(_INSTALLED_TREES))


@functools.cache
def _secret_names() -> tuple[str, ...]:
    """The fixed file names of :data:`SECRET_PATTERNS` (``Login Data``, ``key4.db``…)."""
    names = (p.rsplit("/", 1)[-1].strip("*") for p in SECRET_PATTERNS)
    return tuple(dict.fromkeys(n for n in names if len(n) >= 3 and not set(n) & set("*?[")))


_GLOB_PART = re.compile(r"\[[^]]*\]|[*?]")


def glob_names_secret(path: str) -> bool:
    """Tell whether a glob spells a secret's name, whatever this machine holds.

    ``~/Library/Application Support/Google/Chrome/*/Login*`` names each profile's ``Login
    Data`` on the machine it runs on, even where no browser is installed here. The last part
    must start with three literal characters (``ls /etc/*.conf`` names nothing in particular).

    :param path: an absolute path that may hold glob characters.
    :returns: true when a secret's fixed name matches the last part and, put there, is a
        secret path.
    """
    head, _, last = path.rpartition("/")
    if not _GLOB_PART.search(last) or _GLOB_PART.search(last[:3]):
        return False
    base = _GLOB_PART.sub("x", head)
    return any(fnmatch.fnmatchcase(name, last) and is_secret_path(f"{base}/{name}")
               for name in _secret_names())


_INSTALLED_TREES = ("/etc/pam.d/", "/usr/share/", "/usr/lib/", "/usr/include/")
"""Trees of installed, world-readable files whose names mention passwords or tokens by what
they configure or document (``/etc/pam.d/common-password``, the password policy Atomic Red
Team T1201 reads): the name says nothing of a secret there (the patterns still apply)."""


_WRITING_OPTIONS: dict[str, tuple[str, ...]] = {
    "sort": ("-o", "--output", "--compress-program"),
    "tree": ("-o",),
    "rg": ("--pre",),
    "bat": ("--pager",),
    "less": ("-o", "-O", "--log-file", "--LOG-FILE"),
    "utmpdump": ("-o", "--output"),
    "ffprobe": ("-o", "-report"),
    "mediainfo": ("--LogFile", "--logfile", "--Output"),
    "highlight": ("-o", "--output", "-d", "--outdir"),
    "xmllint": ("-o", "--output"),
    "iconv": ("-o", "--output"),
}

_AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox awk"})
_AWK_EFFECTS = re.compile(r"system|getline|close|fflush|"
                          r"\bprintf?\b[^;{}\n]*?(?:(?<![<>=!|])>(?!=)|(?<!\|)\|(?!\|))")
"""What makes an awk program more than a reader (awk(1)): running a command, reading one's
output, closing or flushing a stream, and a print statement's redirection (``print > f``,
``>> f``, ``| cmd``). Comparisons (``$4 >= 1000``, ``NR > 1``) and ``||`` are no effect; the
program's string literals are blanked first (``printf "<%s>"``)."""
_AWK_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_SED_SUBSTITUTION = re.compile(r"s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1([a-zA-Z0-9]*)")
_SED_ADDRESS = re.compile(r"/(?:\\.|[^/])*/|\\(.)(?:\\.|(?!\1).)*\1")
_TAR_WRITES = re.compile(r"^--(?:create|extract|get|append|update|delete|concatenate|"
                         r"to-command|checkpoint|use-compress|info-script|new-volume|rsh|"
                         r"index-file|file=-)|^-[IF]$")
_DPKG_QUERIES = frozenset({"-l", "-L", "-s", "-S", "-p", "--list", "--listfiles", "--status",
                           "--search", "--print-avail", "--get-selections", "-c", "--contents",
                           "-I", "--info", "-f", "--field"})


def _awk_read_only(args: Sequence[str]) -> bool:
    """An awk program that neither runs, pipes, redirects nor reads a command's output."""
    if any(a in ("-f", "-i", "--include", "-l") or a.startswith(("-f", "--file", "-i"))
           for a in args):
        return False  # a program file or an in-place extension decides what happens
    programs = [a for a in args if not a.startswith("-")][:1]
    return bool(programs) and not _AWK_EFFECTS.search(_AWK_STRING.sub('""', programs[0]))


def _sed_read_only(args: Sequence[str]) -> bool:
    """Tell whether sed runs without ``-i`` and its script writes, runs and reads nothing."""
    if any(a.startswith(("-i", "--in-place", "-f", "--file", "-s")) or (
            a.startswith("-") and not a.startswith("--") and "i" in a) for a in args):
        return False
    scripts = [v for a, v in itertools.pairwise(args) if a in ("-e", "--expression")]
    if not scripts:
        scripts = [a for a in args if not a.startswith("-")][:1]
    for script in scripts:
        for match in _SED_SUBSTITUTION.finditer(script):
            if set(match.group(2)) & {"w", "e", "W"}:
                return False
        rest = _SED_ADDRESS.sub("", _SED_SUBSTITUTION.sub("", script))
        if set(rest) & set("wWerR"):
            return False
    return bool(scripts)


def _read_only_form(head: str, args: Sequence[str]) -> bool:
    """The commands that read only in some forms (see :data:`READ_ONLY`)."""
    operands = [a for a in args if not a.startswith("-")]
    if head in _AWKS:
        return _awk_read_only(args)
    if head == "sed":
        return _sed_read_only(args)
    if head == "xxd":
        return len(operands) <= 1 and not any(a.startswith(("-r", "-revert")) for a in args)
    if head == "tar":
        first = (args[0] if args else "").lstrip("-")
        listing = "--list" in args or (bool(first) and "t" in first and not args[0].startswith(
            "--") and not set(first) & set("xcruA"))
        return listing and not any(_TAR_WRITES.match(a) for a in args)
    if head == "unzip":
        return bool({"-l", "-v", "-t", "-Z", "-lv", "-tq"} & set(args)) and "-d" not in args
    if head == "dpkg":
        return bool(args) and args[0].split("=", 1)[0] in _DPKG_QUERIES
    if head == "rpm":
        return bool(args) and args[0].startswith("-q") and not any(
            a.startswith("--pipe") for a in args)
    if head == "ssh-keygen":  # -l (fingerprint), -F (find a host), -B (bubblebabble)
        letters = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
        return bool(set(letters) & set("lFB")) and set(letters) <= set("lFBfvE")
    if head in _DECOMPRESSORS:  # to standard output, a listing or a test: nothing written
        return _decompress_read_only(args)
    if head in ("7z", "7za", "7zz", "7zr"):
        return operands[:1] in (["l"], ["t"]) and not any(a.startswith("-o") for a in args)
    if head == "uniq":  # a second operand is its output file
        return len(operands) <= 1
    if head == "openssl":
        return operands[:1] in _OPENSSL_READS and not any(
            a.startswith(("-out", "-keyout", "-new")) for a in args)
    if head == "man":
        return "-l" in args or "--local-file" in args
    if head == "udevadm":  # udevadm(8) info prints a device's properties
        return operands[:1] == ["info"]
    if head == "journalctl":
        return not any(a.startswith(("--vacuum", "--rotate", "--flush", "--setup-keys",
                                     "--update-catalog")) for a in args)
    if head == "codesign":  # codesign(1): display and verify; -s signs, --extract-* writes
        return any(a.startswith(("-d", "-v", "--display", "--verify")) for a in args) and not any(
            a.startswith(("-s", "--sign", "--remove-signature", "-f", "--force", "--extract",
                          "-o", "--options")) for a in args)
    if head == "spctl":  # spctl(8): an assessment or the status; the rest changes the policy
        return all(a.startswith(_SPCTL_READS) or not a.startswith("-") for a in args) and any(
            a.startswith(("-a", "--assess", "--status")) for a in args)
    if head == "plutil":  # plutil(1): print and check; -convert, -insert, -replace… write
        return bool(args) and args[0] in ("-p", "-lint", "-help") and "-o" not in args
    if head == "xattr":  # xattr(1): list and print; -w, -d, -c change a file
        return not any(a.startswith(("-w", "-d", "-c")) or (
            a.startswith("-") and not a.startswith("--") and set(a[1:]) & set("wdc"))
                       for a in args)
    if head == "lipo":  # lipo(1): -info, -archs, -detailed_info print; -create… -output write
        return bool({"-info", "-archs", "-detailed_info", "-verify_arch"} & set(args)) and (
            "-output" not in args)
    if head == "pkgutil":  # pkgutil(1): the receipts' queries; --forget, --expand* write
        return bool(args) and args[0] in _PKGUTIL_READS
    if head == "tmutil":  # tmutil(8): listings, status and comparisons of backups
        return bool(operands) and (operands[0].startswith("list") or operands[0] in _TMUTIL_READS)
    if head == "plistbuddy":  # PlistBuddy(8): -c "Print[ :key]" prints; Set, Add, Delete,
        # Merge, Import, Save and Clear change the file (its man page)
        commands = [b for a, b in itertools.pairwise(args) if a == "-c"]
        return bool(commands) and all(c.strip().lower().startswith("print") for c in commands)
    if head == "defaults":  # defaults(1): read, read-type, find and domains print; write,
        # delete, import and export (to a file) change something
        return bool(operands) and operands[0] in ("read", "read-type", "find", "domains")
    if head == "diskutil":  # diskutil(8): listings, information and verification
        return bool(operands) and (operands[0] in ("list", "info", "information", "activity")
                                   or operands[0].startswith("verify"))
    if head == "exiftool":
        return not any("=" in a or a.startswith(("-o", "-w", "-overwrite", "-tagsfromfile",
                                                 "-geotag", "-delete", "-@"))
                       for a in (x.lower() for x in args))
    return False


_TMUTIL_READS = frozenset({"status", "destinationinfo", "machinedirectory", "latestbackup",
                           "isexcluded", "uniquesize", "calculatedrift", "compare",
                           "verifychecksums", "version"})
_SPCTL_READS = ("-a", "--assess", "--status", "-v", "--verbose", "-t", "--type", "--raw",
                "--context", "-R", "--ignore-cache", "--no-cache")
_PKGUTIL_READS = frozenset({"--pkgs", "--packages", "--files", "--pkg-info", "--pkg-info-plist",
                            "--file-info", "--file-info-plist", "--export-plist", "--pkgs-plist",
                            "--check-signature", "--payload-files", "--groups", "--group-pkgs",
                            "--pkg-groups", "--only-files", "--only-dirs", "--regexp"})
_DECOMPRESSORS = frozenset({"gzip", "gunzip", "xz", "unxz", "bzip2", "bunzip2", "zstd",
                            "unzstd", "lz4", "lzma", "unlzma", "lzip", "pigz", "pixz"})
_OPENSSL_READS = (["x509"], ["req"], ["crl"], ["verify"], ["asn1parse"], ["dgst"],
                  ["pkcs7"], ["s_client"], ["version"], ["ciphers"], ["crl2pkcs7"])


FORM_READERS: frozenset[str] = _AWKS | _DECOMPRESSORS | frozenset({
    "sed", "xxd", "tar", "unzip", "dpkg", "rpm", "ssh-keygen", "7z", "7za", "7zz", "7zr",
    "uniq", "openssl", "man", "udevadm", "journalctl", "codesign", "spctl", "plutil", "xattr",
    "lipo", "pkgutil", "tmutil", "defaults", "diskutil", "exiftool", "plistbuddy",
})
"""The commands :func:`_read_only_form` judges: read-only in some forms, writing in others."""


def _decompress_read_only(args: Sequence[str]) -> bool:
    """``gunzip -c f``, ``xz -dc f``, ``gzip -l f``, ``zstd -t f``: no file written."""
    if any(a.startswith(("-o", "--output", "--rm", "-S", "--suffix")) for a in args):
        return False
    letters = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    longs = {"--stdout", "--to-stdout", "--list", "--test"}
    return bool(set(letters) & set("clt")) or bool(longs.intersection(args))


_GIT_READS = frozenset({"log", "show", "shortlog", "rev-parse", "describe", "cat-file",
                        "reflog", "rev-list", "whatchanged", "blame"})


def _git_reads(args: Sequence[str]) -> bool:
    """``git -C ../lib log``: history only, and no ``--output`` file.

    Not ``status`` or ``diff``, which run a repository's fsmonitor or diff drivers.
    """
    operands = [a for a in without_git_options(args) if not a.startswith("-")]
    no_index = operands[:1] == ["diff"] and "--no-index" in args  # two files compared
    return bool(operands) and (operands[0] in _GIT_READS or no_index) and not any(
        a.startswith(("--output", "--ext-diff", "--textconv")) or a == "-o" for a in args)


def _read_only(segment: Segment) -> bool:
    argv = segment.argv
    if argv and argv[0] == "git":
        return _git_reads(argv[1:])
    if argv and argv[0] not in READ_ONLY:
        return _read_only_form(argv[0], argv[1:])
    if not argv:
        return False
    if argv[0] == "find" and _FIND_ACTIONS.intersection(argv):
        return False
    writing = _WRITING_OPTIONS.get(argv[0], ())
    return not any(a.startswith(writing) for a in argv[1:]) if writing else True


_GIT_INPUT_OPTIONS: dict[str, frozenset[str]] = {
    "commit": frozenset({"-F", "--file", "-t", "--template"}),
    "tag": frozenset({"-F", "--file"}), "merge": frozenset({"-F", "--file"}),
    "notes": frozenset({"-F", "--file"}),
}
_GH_INPUT_OPTIONS = frozenset({"--body-file", "-F", "--notes-file"})


def _option_files(args: Sequence[str], options: frozenset[str]) -> set[str]:
    found = set()
    for index, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if arg in options and index + 1 < len(args):
            found.add(args[index + 1])
        elif equals and name in options:
            found.add(value)
    return found


def input_files(segment: Segment) -> frozenset[str]:
    """Files a writing command only reads: messages, bodies, copy sources.

    ``git commit -F msg``, ``git tag|merge|notes -F``, ``gh … --body-file``, the
    sources of ``cp`` (not when it makes links: the link rules judge those), of ``rsync``,
    ``tar -c``, ``zip`` and ``git clone`` and a builder's ``-f`` Dockerfile. A patch
    (``patch``, ``git apply|am``) is not among them: its content decides where it writes.

    :param segment: one analysed segment.
    :returns: the words naming those files.
    """
    argv = segment.argv
    if not argv:
        return frozenset()
    head, args = argv[0], list(argv[1:])
    operands = [a for a in args if not a.startswith("-")]
    if head == "git" and operands:
        sub = operands[0]
        if sub in _GIT_INPUT_OPTIONS:
            return frozenset(_option_files(args, _GIT_INPUT_OPTIONS[sub]))
    if head == "gh":
        return frozenset(_option_files(args, _GH_INPUT_OPTIONS))
    if head == "cp" and not any(
            a.startswith(("--li", "--sy", "-t", "--target")) or (
                a.startswith("-") and not a.startswith("--") and ("l" in a or "s" in a))
            for a in args):
        return frozenset(operands[:-1])
    return _archive_sources(head, args, operands)


_RSYNC_MOVES = ("--remove-source-files", "-e", "--rsh", "--rsync-path", "--files-from",
                "--include-from", "--exclude-from", "--link-dest", "--copy-dest",
                "--compare-dest")
_ZIP_UNSAFE = ("-m", "--move", "-T", "--test", "-TT", "--unzip-command", "-d", "--delete",
               "-@", "-i@", "-x@")
_UNZIP_VALUE_OPTIONS = frozenset({"-d", "-P", "-I", "-O"})
"""unzip(1)'s options that take a separate value: the extraction directory, the password and
the character sets."""
_CLONE_UNSAFE = ("-u", "--upload-pack", "--template", "-c", "--config", "--separate-git-dir",
                 "--reference", "--shared", "-s")
_BUILDERS = frozenset({"docker", "podman", "buildah", "nerdctl"})


def _tar_sources(args: Sequence[str]) -> frozenset[str]:
    """``tar -czf out.tgz ~/notes``: what a tar that creates an archive reads."""
    if not args or any(a.startswith(("-C", "--directory", "--remove-files", "-T",
                                     "--files-from", "--to-command", "-I", "--use-compress",
                                     "--checkpoint", "--rsh", "-F", "--info-script",
                                     "--new-volume-script")) for a in args):
        return frozenset()
    cluster = args[0].lstrip("-")
    if args[0].startswith("--") or "c" not in cluster or set(cluster) & set("xturA"):
        return frozenset()
    rest = list(args[1:])
    archive = ""
    if "f" in cluster:
        tail = cluster.split("f", 1)[1]
        archive = tail or (rest.pop(0) if rest else "")
    return frozenset(a for a in rest if not a.startswith("-") and a != archive)


def _tar_extracted(args: Sequence[str]) -> frozenset[str]:
    """``tar -xzf ~/x.tgz``: the archive an extraction reads (``-C`` is judged as written)."""
    if not args or args[0].startswith("--") or any(
            a.startswith(("--to-command", "-I", "--use-compress", "--checkpoint", "--rsh",
                          "-F", "--info-script", "--new-volume-script")) for a in args):
        return frozenset()
    cluster = args[0].lstrip("-")
    if "x" not in cluster or "f" not in cluster or set(cluster) & set("cruA"):
        return frozenset()
    tail = cluster.split("f", 1)[1]
    archive = tail or (args[1] if len(args) > 1 else "")
    return frozenset({archive} - {"", "-"})


def _archive_sources(head: str, args: Sequence[str],
                     operands: Sequence[str]) -> frozenset[str]:
    """Tell what a copy into an archive or the tree reads (it changes no source).

    ``rsync SRC… DST``, ``tar -c``, ``zip OUT SRC…``, ``git clone SRC``, ``docker build -f``.
    """
    if head == "rsync" and len(operands) >= 2 and not any(
            a.startswith(_RSYNC_MOVES) for a in args) and not any(":" in o for o in operands):
        return frozenset(operands[:-1])
    if head in ("tar", "bsdtar", "gtar"):
        return _tar_sources(args) | _tar_extracted(args)
    if head == "unzip" and not any(a.startswith(("-@", "-Z")) for a in args):
        # the archive read, the first operand that is no option's value (unzip -d DIR a.zip:
        # -d names where it writes)
        archive = [a for a, before in zip(args, ("", *args), strict=False)
                   if not a.startswith("-") and before not in _UNZIP_VALUE_OPTIONS][:1]
        return frozenset(archive)
    if head == "zip" and len(operands) >= 2 and not any(
            a.startswith(_ZIP_UNSAFE) for a in args):
        return frozenset(operands[1:])
    if head == "git" and operands[:1] == ["clone"] and len(operands) >= 2 and not any(
            a.startswith(_CLONE_UNSAFE) for a in args) and "://" not in operands[1]:
        return frozenset(operands[1:2])
    if head in _BUILDERS and operands[:1] == ["build"]:
        return frozenset(_option_files(args, frozenset({"-f", "--file"})))
    return frozenset()


def _words(segment: Segment) -> set[str]:
    """The segment's words as the path rules read them (:func:`.paths.path_arguments`).

    An option's or an assignment's value after its ``=``: ``--out=/x``, ``x=/etc/hosts``.
    """
    return {path_value(word.value) or word.value for word in segment.words}


def read_only_paths(analysis: CommandAnalysis) -> frozenset[str]:
    """The path words that only read-only commands are given.

    :param analysis: the analysed command.
    :returns: path words safe to read outside the roots (secrets are the caller's check).
    """
    everything_reads = not (analysis.writes or analysis.redirect_targets) and all(
        _read_only(s) or s.command in _DIRECTORY_CHANGERS for s in analysis.segments)
    readers: set[str] = set(analysis.input_sources)  # ``< f``: the shell only reads f
    others: set[str] = set(analysis.redirect_targets)
    for segment in analysis.segments:
        words = {w for w in _words(segment) if is_path_like(w)}
        if _read_only(segment) or (everything_reads and segment.command in _DIRECTORY_CHANGERS):
            readers |= words
        else:
            inputs = {p for p in input_files(segment) & words if not _holds_secrets(p)}
            readers |= inputs
            others |= words - inputs
    return frozenset(readers - others)


_SECRET_HOLDERS = re.compile(
    r"^(?:/|~|/root|/home|/Users|(?:~|/root|/home/[^/]+|/Users/[^/]+)(?:/\.[^/]+)?)/?$")
"""A copy or archive source that holds the user's secrets whole: the filesystem's root, a home
or the homes, or a home's hidden settings entry (``~/.config``): ``cp -r ~ backup`` copies
``~/.ssh`` too. ``/etc`` stays a copy source (its secrets are root's to read: ``rsync -a
--links /etc/ e/`` is pinned allowed by an earlier round)."""


def _holds_secrets(path: str) -> bool:
    return _SECRET_HOLDERS.match(path) is not None


def metadata_paths(analysis: CommandAnalysis) -> frozenset[str]:
    """The path words that only :data:`METADATA_ONLY` commands are given (no content read).

    Only in a command whose other segments open no file they are told of (``stat x &&
    echo ok``; not ``ls ~/.ssh/id_* | parallel -X cat``).

    :param analysis: the analysed command.
    :returns: path words whose content no command of the analysis reads or writes.
    """
    if not all(s.command in METADATA_ONLY or s.command in _NAME_BLIND for s in analysis.segments):
        return frozenset()  # ls ~/.ssh/id_* | parallel -X cat: the names feed a reader
    return _given_only_to(METADATA_ONLY, analysis,
                          set(analysis.redirect_targets) | set(analysis.input_sources))


def printed_paths(analysis: CommandAnalysis) -> frozenset[str]:
    """The path words that :data:`.PRINTERS` only print (``echo $HOME``, ``printf %s ~/x``).

    A name an ``echo`` prints is data, not a file it opens. Only in a command whose other
    segments open no file they are told of (as for :func:`metadata_paths`): ``echo /etc/x |
    xargs cat`` feeds the name to a reader, and a word also redirected to or written stays a
    path.

    :param analysis: the analysed command.
    :returns: path words no command of the analysis reads or writes (secrets are the caller's
        check).
    """
    if not all(s.command in PRINTERS or s.command in METADATA_ONLY or s.command in _NAME_BLIND
               for s in analysis.segments):
        return frozenset()
    return _given_only_to(PRINTERS, analysis, set(analysis.redirect_targets)
                          | set(analysis.input_sources) | set(analysis.write_targets))


def _given_only_to(heads: frozenset[str], analysis: CommandAnalysis,
                   others: set[str]) -> frozenset[str]:
    """The path words given to commands named in ``heads`` and to nothing else.

    :param heads: the commands whose words are collected.
    :param analysis: the analysed command.
    :param others: words known to be used otherwise (redirections, inputs, writes).
    :returns: the words of those commands, minus ``others`` and every other command's words.
    """
    given: set[str] = set()
    others = set(others)
    for segment in analysis.segments:
        words = {w for w in _words(segment) if is_path_like(w)}
        if segment.argv and segment.argv[0] in heads:
            given |= words
        else:
            others |= words
    return frozenset(given - others)


_NAME_BLIND = frozenset({"echo", "printf", "grep", "head", "tail", "wc", "sort", "uniq", "cut",
                         "column", "true", "false", ":"})
"""Commands that may sit next to a metadata look without opening the files it names."""


SCRIPT_RUNNERS: frozenset[str] = frozenset({
    "source", ".", "python", "python3", "node", "nodejs", "ruby", "perl", "php", "lua",
    "bash", "sh", "zsh", "dash", "Rscript", "deno", "bun",
})
"""Commands whose first operand is a program they run (``python3 tool.py``, ``source env``)."""

SCRIPT_DENIED_PREFIXES: tuple[str, ...] = (
    "/tmp/", "/var/tmp/", "/dev/", "/proc/", "/sys/", "/etc/", "/boot/", "/run/",
)
"""Where a script run from outside the roots stays denied: temporary directories (a
dropped payload) and the system's own trees (``sh /etc/init.d/ssh stop``)."""

_SCRIPT_OPTIONS_STOP = frozenset({"-c", "-m", "-e", "-E", "-r", "--eval", "--command", "-p",
                                  "--print"})


def script_paths(analysis: CommandAnalysis) -> frozenset[str]:
    """Programs run from a path: the first operand of :data:`SCRIPT_RUNNERS`.

    ``source ~/.nvm/nvm.sh``, ``. "$HOME/.cargo/env"``, ``python3 ~/bin/tool.py``: an
    installed program's script, run like ``/usr/bin/python3`` itself (a command word is no
    path argument). Not when code or a module comes first (``python3 -m pytest /x``: ``/x``
    is the module's argument), and never a word also written or redirected. A runner with no
    script operand, or told to read its script on input (``sh -s``, ``python3 -``), runs the
    file redirected to its input: ``sh -s < /tmp/x.sh`` runs ``/tmp/x.sh`` as ``sh
    /tmp/x.sh`` does, so that file is its script, not a file it reads.

    :param analysis: the analysed command.
    :returns: the script words (the caller checks secrets and :data:`SCRIPT_DENIED_PREFIXES`).
    """
    return _run_scripts(analysis, sourced=True) - frozenset(analysis.write_targets)


def interpreted_scripts(analysis: CommandAnalysis) -> frozenset[str]:
    """The scripts an interpreter runs (:func:`script_paths`'s operands, written ones too).

    Not a file sourced into the shell (``source``, ``.``).

    :param analysis: the analysed command.
    :returns: the script words (``/tmp/repro.py`` of ``python3 /tmp/repro.py``).
    """
    return _run_scripts(analysis, sourced=False)


def _run_scripts(analysis: CommandAnalysis, *, sourced: bool) -> frozenset[str]:
    found: set[str] = set()
    for segment in analysis.segments:
        argv = segment.argv
        if not argv or (argv[0] not in SCRIPT_RUNNERS
                        and argv[0].rstrip("0123456789.") not in SCRIPT_RUNNERS):
            continue
        if not sourced and argv[0] in ("source", "."):
            continue
        script = segment.stdin_file  # no operand: the program is read on input
        for arg in argv[1:]:
            if arg in _STDIN_SCRIPT:
                break
            if arg in _SCRIPT_OPTIONS_STOP or arg.startswith(("-c", "-m", "-e", "--eval")):
                script = ""
                break
            if not arg.startswith("-"):
                script = arg
                break
        if script:
            found.add(script)
    return frozenset(found)


_STDIN_SCRIPT = frozenset({"-s", "-"})
"""Options telling a runner its script comes on input (``bash -s ARG…``, ``python3 -``)."""


def toolchain_reads(segment: Segment) -> bool:
    """Tell whether a read-only segment's run-time paths all name a toolchain's directory.

    ``ls $(go env GOROOT)/src``, ``cat "$(npm root -g)/pnpm/package.json"``: reading there
    is reading outside the project (allowed for what is no secret), not a path unknown.

    :param segment: one analysed segment.
    :returns: true when the segment only reads and every word built at run time is such a
        path, with no ``..`` and no secret's name in it.
    """
    if not _read_only(segment):
        return False
    built = [w for w in segment.words[segment.command_positions[-1] + 1 :] if w.dynamic]
    return bool(built) and all(
        TOOLCHAIN_DIR.fullmatch(w.source) and ".." not in w.value
        and not is_secret_path("/x" + w.value) for w in built)


def program_paths(analysis: CommandAnalysis) -> frozenset[str]:
    """Relative program words (``.venv/bin/python``, ``./gradlew``) at a command position.

    :param analysis: the analysed command.
    :returns: the words, to be checked lexically (where the link is, not where it points).
    """
    found = set()
    for segment in analysis.segments:
        for position in segment.command_positions:
            value = segment.words[position].value
            if "/" in value and not value.startswith(("/", "~")) and ".." not in value.split("/"):
                found.add(value)
    return frozenset(found)


def normalised(raw: str, cwd: str) -> str:
    """The absolute, lexically normalised form of a path word.

    :param raw: the path word (``~`` expanded here).
    :param cwd: the directory relative words start from.
    :returns: the path.
    """
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(raw)))
