"""Illumination: the layout's winning areas lit after every result (000 §2.3, §5.5).

- :mod:`.lamps` is pure: the winning spots of a result under the round's paytable, and the
  verdict on what the layout controller reports (lit, or a fault);
- :mod:`.illuminator` is the shell: ask the table's controller, append the verdict once, and
  report a fault to the lifecycle (000 §7.7, 004);
- :mod:`.service` is the process: a FastStream app on the provisioned ``illumination`` consumer;
- :mod:`.controller` is a simulated layout controller (a lamp panel), with fault injection.
"""
