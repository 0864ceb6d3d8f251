// The popup shows what the worker keeps in storage and asks it to act.
const $ = (id) => document.getElementById(id);
const send = (m) => chrome.runtime.sendMessage(m);

async function render() {
  const l = await chrome.storage.local.get(['address', 'token', 'buddi']);
  const s = await chrome.storage.session.get(['code', 'connected', 'problem']);
  $('address').value = l.address || '127.0.0.1:7777';
  $('unpaired').hidden = !!l.token || !!s.code;
  $('pairing').hidden = !s.code;
  $('paired').hidden = !l.token;
  $('code').textContent = s.code || '';
  $('buddi').textContent = (l.buddi || 'buddi') + (s.connected ? '' : ' (not connected now)');
  $('problem').textContent = s.problem || '';
  if (l.token) {
    const groups = chrome.tabGroups ? await chrome.tabGroups.query({ title: 'buddi' }) : [];
    let n = 0;
    for (const g of groups) n += (await chrome.tabs.query({ groupId: g.id })).length;
    $('tabs').textContent = String(n);
  }
}

$('connect').onclick = async () => {
  const address = $('address').value.trim();
  if (address) await send({ type: 'address', address });
  await send({ type: 'connect' });
};
$('copy').onclick = () => navigator.clipboard.writeText($('code').textContent);
$('settings').onclick = async () => {
  const { address } = await chrome.storage.local.get('address');
  chrome.tabs.create({ url: `http://${address || '127.0.0.1:7777'}/#/settings/yourbrowser` });
};
$('forget').onclick = () => send({ type: 'forget' });
chrome.storage.onChanged.addListener(render);
render();
