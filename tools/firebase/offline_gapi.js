// A stand-in for Google's gapi loader (https://apis.google.com/js/api.js)
// for machines without internet access: the Firebase JS SDK and the Auth
// emulator's helper iframe use only gapi.iframes to pass the sign-in result
// from the emulator's popup back to the page. This implements that much with
// window.postMessage. The end-to-end tests serve it in place of the real
// script (the test machines' network is closed); Firebase itself, its SDK and
// the emulator stay real.
(function () {
  if (window.gapi && window.gapi.iframes && window.gapi.iframes.Iframe) return;
  var nextId = 1;
  var channels = [];

  function Channel(target) {
    this.target = target;
    this.handlers = {};
    this.pending = {};
    this.queued = {};
  }
  Channel.prototype.post = function (message) {
    message.gapiShim = 1;
    this.target.postMessage(message, "*");
  };
  Channel.prototype.register = function (type, handler) {
    this.handlers[type] = handler;
    var queued = this.queued[type] || [];
    delete this.queued[type];
    queued.forEach(this.handle, this);
  };
  Channel.prototype.send = function (type, data, callback) {
    var id = "m" + nextId++ + "-" + Math.random();
    if (callback) this.pending[id] = callback;
    this.post({ kind: "call", type: type, data: data, id: id });
  };
  Channel.prototype.handle = function (message) {
    if (message.kind === "reply") {
      var callback = this.pending[message.id];
      delete this.pending[message.id];
      // gapi swallows what a callback throws (the Firebase SDK relies on it).
      try {
        if (callback) callback(message.data);
      } catch (error) {
        console.debug("gapi callback:", error);
      }
      return;
    }
    var handler = this.handlers[message.type];
    if (!handler) {
      (this.queued[message.type] = this.queued[message.type] || []).push(message);
      return;
    }
    var self = this;
    Promise.resolve(handler(message.data)).then(function (value) {
      self.post({ kind: "reply", id: message.id, data: [value] });
    });
  };

  function channelFor(target) {
    var channel = new Channel(target);
    channels.push({ source: target, channel: channel });
    return channel;
  }

  window.addEventListener("message", function (event) {
    var message = event.data;
    if (!message || message.gapiShim !== 1) return;
    channels.forEach(function (entry) {
      if (entry.source === event.source) entry.channel.handle(message);
    });
  });

  function open(params, callback) {
    var frame = document.createElement("iframe");
    var attributes = params.attributes || {};
    Object.keys(attributes).forEach(function (name) {
      if (name === "style") Object.assign(frame.style, attributes.style);
      else frame.setAttribute(name, attributes[name]);
    });
    var loaded = new Promise(function (resolve) {
      frame.addEventListener("load", resolve);
    });
    frame.src = params.url;
    (params.where || document.body).appendChild(frame);
    var channel = channelFor(frame.contentWindow);
    var iframe = {
      register: channel.register.bind(channel),
      send: channel.send.bind(channel),
      restyle: function () {
        return Promise.resolve();
      },
      ping: function (callback) {
        return loaded.then(function () {
          if (callback) callback();
        });
      },
      getSiteEl: function () {
        return frame;
      },
    };
    return loaded.then(function () {
      return callback ? callback(iframe) : iframe;
    });
  }

  var parentChannel = null;
  var context = {
    open: open,
    getParentIframe: function () {
      parentChannel = parentChannel || channelFor(window.parent);
      return { register: parentChannel.register.bind(parentChannel), send: parentChannel.send.bind(parentChannel) };
    },
  };

  window.gapi = window.gapi || {};
  window.gapi.iframes = {
    Iframe: function () {},
    CROSS_ORIGIN_IFRAMES_FILTER: function () {
      return true;
    },
    getContext: function () {
      return context;
    },
  };
  window.gapi.load = function (_name, options) {
    var callback = typeof options === "function" ? options : options && options.callback;
    setTimeout(function () {
      if (callback) callback();
    });
  };

  var script = document.currentScript;
  var onload = script && script.src ? new URL(script.src).searchParams.get("onload") : null;
  setTimeout(function () {
    if (onload && typeof window[onload] === "function") window[onload]();
    if (typeof window.gapi_onload === "function") window.gapi_onload();
  });
})();
