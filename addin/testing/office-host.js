// Stand-in for Microsoft's office.js in the browser tests: served (by a Playwright route) in place of
// https://appsforoffice.microsoft.com/lib/1/hosted/office.js. It provides the `Office` object with one mailbox
// item described by `window.__officeHost` (set by the test before the page loads), and an Office dialog made
// of a popup window whose page talks back through `messageParent` → `postMessage` to the opener.
(() => {
  const host = window.__officeHost ?? {};
  host.calls = [];
  const ok = (value) => ({ status: 'succeeded', value });
  const failed = (code, message) => ({ status: 'failed', error: { code, message, name: 'Error' } });
  const minor = (version) => Number(String(version).split('.')[1] ?? 0);
  const address = (a) => ({ emailAddress: a.address, displayName: a.name ?? a.address });
  const later = (callback, result) => setTimeout(() => callback?.(result), 0);

  function readItem(spec) {
    return {
      itemId: itemIdOf(spec),
      itemType: 'message',
      internetMessageId: spec.internetMessageId,
      conversationId: spec.conversationId,
      subject: spec.subject,
      from: address(spec.from),
      to: spec.to.map(address),
      cc: (spec.cc ?? []).map(address),
      dateTimeCreated: new Date(spec.sentAt),
      attachments: (spec.attachments ?? []).map(({ content, ...a }) => ({ ...a, attachmentType: 'file' })),
      body: {
        getAsync(type, callback) {
          host.calls.push(`body.getAsync:${type}`);
          later(callback, ok(type === 'html' ? (spec.bodyHtml ?? '') : spec.bodyText));
        },
      },
      getAttachmentContentAsync(id, callback) {
        host.calls.push(`getAttachmentContentAsync:${id}`);
        const attachment = (spec.attachments ?? []).find((a) => a.id === id);
        if (attachment?.unreadable) return later(callback, failed(9999, 'Internal error'));
        later(
          callback,
          attachment ? ok({ format: 'base64', content: attachment.content }) : failed(9002, 'No such attachment'),
        );
      },
      getAsFileAsync(callback) {
        host.calls.push('getAsFileAsync');
        if (!spec.rawBase64) return later(callback, failed(5001, 'Not supported'));
        // rawPaddingBytes: the whole message is that much larger than its parts tell (long headers), built here
        // rather than sent through the test's init script.
        const padding = spec.rawPaddingBytes ? `X-Padding: ${'a'.repeat(spec.rawPaddingBytes)}\r\n` : '';
        later(callback, ok(padding ? btoa(padding + atob(spec.rawBase64)) : spec.rawBase64));
      },
      ...itemExtras(spec),
    };
  }

  // What read and compose items share: the add-in's custom properties, categories, a shared mailbox's properties.
  function itemExtras(spec) {
    host.customProperties ??= { ...(spec.customProperties ?? {}) };
    const id = itemIdOf(spec);
    return {
      loadCustomPropertiesAsync(callback) {
        later(
          callback,
          ok({
            get: (name) => host.customProperties[name],
            set: (name, value) => {
              host.pendingProperties = { ...(host.pendingProperties ?? host.customProperties), [name]: value };
            },
            remove: (name) => {
              const { [name]: _removed, ...rest } = host.pendingProperties ?? host.customProperties;
              host.pendingProperties = rest;
            },
            saveAsync(done) {
              host.customProperties = { ...(host.pendingProperties ?? host.customProperties) };
              later(done, ok(undefined));
            },
          }),
        );
      },
      categories: {
        addAsync(names, callback) {
          const unknown = names.filter((n) => !host.masterCategories.some((c) => c.displayName === n));
          if (unknown.length) return later(callback, failed(9044, 'Category not in the master list'));
          host.categoriesOf[id] = [...new Set([...(host.categoriesOf[id] ?? []), ...names])];
          later(callback, ok(undefined));
        },
        // Removing a category the item does not carry is no error.
        removeAsync(names, callback) {
          host.calls.push(`categories.removeAsync:${names.join(',')}`);
          host.categoriesOf[id] = (host.categoriesOf[id] ?? []).filter((n) => !names.includes(n));
          later(callback, ok(undefined));
        },
      },
      ...(spec.sharedMailbox
        ? {
            getSharedPropertiesAsync(callback) {
              host.calls.push('getSharedPropertiesAsync');
              later(
                callback,
                ok({ owner: spec.sharedMailbox.owner, delegatePermissions: spec.sharedMailbox.permissions }),
              );
            },
          }
        : {}),
    };
  }

  function composeItem(spec) {
    const getter = (value) => ({ getAsync: (callback) => later(callback, ok(value)) });
    return {
      itemType: 'message',
      conversationId: null,
      subject: getter(spec.subject),
      to: getter(spec.to.map(address)),
      cc: getter((spec.cc ?? []).map(address)),
      from: getter(address(spec.from)),
      body: {
        getAsync: (type, callback) => later(callback, ok(type === 'html' ? (spec.bodyHtml ?? '') : spec.bodyText)),
      },
      getAttachmentsAsync: (callback) =>
        later(callback, ok((spec.attachments ?? []).map(({ content, ...a }) => ({ ...a, attachmentType: 'file' })))),
      getAttachmentContentAsync(id, callback) {
        const attachment = (spec.attachments ?? []).find((a) => a.id === id);
        later(callback, attachment ? ok({ format: 'base64', content: attachment.content }) : failed(9002, 'None'));
      },
      // Every internet header the add-in writes on the draft travels to the recipients: recorded to be checked.
      internetHeaders: {
        setAsync(headers, callback) {
          host.headersSet = { ...(host.headersSet ?? {}), ...headers };
          later(callback, ok(undefined));
        },
      },
      ...itemExtras(spec),
    };
  }

  const dialogs = new Map();
  window.addEventListener('message', (event) => {
    if (event.origin !== location.origin || typeof event.data?.officeDialogMessage !== 'string') return;
    for (const handlers of dialogs.values())
      handlers.get('dialogMessageReceived')?.({ message: event.data.officeDialogMessage });
  });

  const spec = host.item;
  const inOutlook = Boolean(spec) || host.noItemSelected;
  // Which Outlook answers: Outlook on the web ('OfficeOnline', the default) or on Mac ('Mac'), where they differ.
  const platform = host.platform ?? 'OfficeOnline';
  const info = { host: inOutlook ? 'Outlook' : null, platform: inOutlook ? platform : null };
  // A selected message as getSelectedItemsAsync describes it: Outlook on Mac answers as Microsoft documents
  // SelectedItemDetails (itemType "Message", itemMode "Read"), the web in lower case and with commandSurface
  // (office-js issue #3908).
  const selectedDetails = (s) =>
    platform === 'Mac'
      ? { itemId: itemIdOf(s), subject: s.subject, itemType: 'Message', itemMode: 'Read' }
      : { itemId: itemIdOf(s), subject: s.subject, itemType: 'message', commandSurface: 'read' };
  host.masterCategories = [...(host.masterCategories ?? [])];
  // Event-based activation: the add-in associates its handlers; the test raises an event (as Outlook does on
  // Send) with host.raise(name) and gets what the handler passed to event.completed.
  const actions = new Map();
  host.raise = (name) =>
    new Promise((resolve) => {
      const handler = actions.get(name);
      if (!handler) return resolve({ notAssociated: name });
      handler({ type: name, completed: (options) => resolve(options ?? {}) });
    });
  // Categories belong to each item (by its id); host.categories are those of the item open now.
  host.categoriesOf = {};
  Object.defineProperty(host, 'categories', { get: () => (current && host.categoriesOf[itemIdOf(current)]) || [] });
  const itemOf = (next) =>
    next ? followsSelection(next.mode === 'compose' ? composeItem(next) : readItem(next)) : null;
  // After ItemChanged, Office.context.mailbox.item is the newly selected item; an item object kept from before runs
  // its calls against the item open now, as Outlook on the web does (office-js issue #3267).
  function followsSelection(item) {
    const now = () => {
      const open = window.Office.context.mailbox.item;
      return open && open !== item ? open : item;
    };
    for (const name of ['getAttachmentContentAsync', 'getAsFileAsync', 'loadCustomPropertiesAsync']) {
      if (item[name])
        item[name] = (
          (own) =>
          (...args) =>
            (now() === item ? own : now()[name])(...args)
        )(item[name]);
    }
    for (const [field, name] of [
      ['body', 'getAsync'],
      ['categories', 'addAsync'],
    ]) {
      const own = item[field][name];
      item[field] = { ...item[field], [name]: (...args) => (now() === item ? own : now()[field][name])(...args) };
    }
    return item;
  }
  // A pinned pane follows the selection: the test selects another e-mail (or none) with host.select(spec), and
  // the add-in's ItemChanged handler is called as Outlook calls it. Custom properties belong to the item.
  const handlers = new Map();
  // Several messages selected (Mailbox 1.13): host.selectMany(specs) as Outlook raises SelectedItemsChanged; each is
  // loaded by its id (1.15). A spec with failLoads: n fails its first n loads, as Outlook does when it is busy.
  host.selected = [...(host.selected ?? [])];
  host.selectMany = (specs) => {
    host.selected = specs;
    window.Office.context.mailbox.item = null;
    handlers.get('olkSelectedItemsChanged')?.({ type: 'olkSelectedItemsChanged' });
  };
  const itemIdOf = (s) => s.itemId ?? `id-${s.internetMessageId}`;
  // Outlook's theme switched while the pane is open: host.setTheme(dark) raises OfficeThemeChanged.
  host.setTheme = (dark) => {
    const officeTheme = { bodyBackgroundColor: dark ? '#1f1f1f' : '#ffffff' };
    window.Office.context.officeTheme = officeTheme;
    handlers.get('officeThemeChanged')?.({ type: 'officeThemeChanged', officeTheme });
  };
  // After a send: the sent copy Outlook keeps in Sent Items, as the spec of a read item for a new pane — the
  // Message-ID the transport gave it, the time it went, and the add-in's custom properties as the draft had them.
  let current = spec;
  host.sentCopy = (internetMessageId) => ({
    ...current,
    mode: 'read',
    internetMessageId,
    sentAt: new Date().toISOString(),
    customProperties: { ...host.customProperties },
  });
  host.select = (next) => {
    current = next;
    host.customProperties = undefined;
    host.pendingProperties = undefined;
    window.Office.context.mailbox.item = itemOf(next);
    handlers.get('olkItemSelectedChanged')?.({ type: 'olkItemSelectedChanged' });
  };
  window.Office = {
    actions: { associate: (name, handler) => actions.set(name, handler) },
    // Declared ahead of this script by chromium.ts, from ./office-enums.ts.
    ...officeEnums,
    onReady(callback) {
      callback?.(info);
      return Promise.resolve(info);
    },
    context: {
      // The add-in's per-person settings in the mailbox: host.roaming holds what was saved (set by a test to start
      // with some), shared by every pane of the test as Outlook shares them across the person's devices.
      roamingSettings: {
        pending: { ...(host.roaming ?? {}) },
        get(name) {
          return this.pending[name];
        },
        set(name, value) {
          this.pending[name] = value;
        },
        saveAsync(callback) {
          host.roaming = { ...this.pending };
          host.calls.push('roamingSettings.saveAsync');
          later(callback, ok(undefined));
        },
      },
      officeTheme: host.dark ? { bodyBackgroundColor: '#1f1f1f' } : { bodyBackgroundColor: '#ffffff' },
      requirements: {
        isSetSupported: (name, version) => name === 'Mailbox' && minor(version) <= (host.mailboxMinor ?? 8),
      },
      mailbox: inOutlook
        ? {
            item: itemOf(spec),
            addHandlerAsync(type, handler, callback) {
              host.calls.push(`addHandlerAsync:${type}`);
              handlers.set(type, handler);
              later(callback, ok(undefined));
            },
            getSelectedItemsAsync(callback) {
              host.calls.push('getSelectedItemsAsync');
              const list = host.selected.length ? host.selected : spec ? [spec] : [];
              later(callback, ok(list.map(selectedDetails)));
            },
            loadItemByIdAsync(itemId, callback) {
              host.calls.push(`loadItemByIdAsync:${itemId}`);
              const found = host.selected.find((s) => itemIdOf(s) === itemId);
              if (!found) return later(callback, failed(9041, 'No such item'));
              if (found.failLoads > 0) {
                found.failLoads -= 1;
                return later(callback, failed(9017, 'The item could not be loaded'));
              }
              later(callback, ok({ ...readItem(found), unloadAsync: (done) => later(done, ok(undefined)) }));
            },
            masterCategories: {
              getAsync: (callback) => later(callback, ok(host.masterCategories)),
              addAsync(categories, callback) {
                // A delegate whose Outlook does not let add-ins change the owner's list.
                if (host.masterCategoriesLocked) return later(callback, failed(9043, 'Access is denied'));
                host.masterCategories.push(...categories);
                later(callback, ok(undefined));
              },
            },
          }
        : undefined,
      ui: {
        displayDialogAsync(url, _options, callback) {
          const popup = window.open(url, 'officeDialog', 'width=480,height=640');
          if (!popup) return later(callback, failed(12009, 'The dialog was blocked'));
          const handlers = new Map();
          const id = Symbol('dialog');
          dialogs.set(id, handlers);
          later(
            callback,
            ok({
              addEventHandler: (type, handler) => handlers.set(type, handler),
              close() {
                dialogs.delete(id);
                popup.close();
              },
            }),
          );
        },
        messageParent(message) {
          window.opener?.postMessage({ officeDialogMessage: message }, location.origin);
        },
      },
    },
  };
})();
